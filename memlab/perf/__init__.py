"""Performance measurement of the whole policy (``memlab bench episode|temporal|report``).

:mod:`~memlab.perf.worker` measures one point (an experiment at one size) in its own process, so that peak
RSS and import costs belong to that point; :mod:`~memlab.perf.suite` runs the points with repeats and
:mod:`~memlab.perf.report` turns the results into ``reports/perf.md`` and a log-log PNG.
"""
