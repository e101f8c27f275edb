"""Strategies: one folder per strategy kind (conf group), one class per file; ``<kind>/base.py`` is the kind.

A kind's base class is its one definition: the contract in its docstring (what the contract tests enforce),
the method every option must define (abstract), every optional method with the default of an option without
that capability, and capabilities as class tags (``JudgeBase.observes``). The builder refuses a target that does
not subclass its group's base (:func:`memlab.wiring.build.resolve_target`) and the tracer wraps every method the base
defines (:func:`memlab.observability.trace.instrument`), so callers call any method on any option and never ask whether
it has one.

Adding an option (three files): the class, subclassing the kind's base, in ``memlab/strategies/<kind>/<name>.py``;
its option ``conf/<kind>/<name>.yaml`` (a header saying how to pick it, ``_target_`` and the hyperparameters);
its line in ``TARGETS[<kind>]`` of ``memlab/wiring/strategy_index.py`` (the allow-list). The first error met names the
next step.

Adding a kind: ``memlab/strategies/<kind>/base.py`` as above; its row in ``memlab/core/groups.py`` (base, the option of
``conf/config.yaml``, the hook's, whether an episode exercises it); ``conf/<kind>/none.yaml`` (the ablation) and its
entry in ``conf/config.yaml``'s defaults list; its field of :class:`memlab.wiring.components.Components`; its key in
``memlab/wiring/strategy_index.py``; a call of each base method in ``tests/test_contracts.py`` (``_calls``), whose tests
then build every option of it (``tests/test_groups.py`` checks that these places agree).
"""
