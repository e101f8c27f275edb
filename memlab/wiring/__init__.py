"""Config wiring, from Hydra's composition to built objects: compose, resolvers, the override check, the one builder
and its allow-list, Components, run names. Below every entry point: nothing here imports ``memlab.cli``, ``memlab.run``
or a command (the override check is handed the command names); this file imports nothing (the hook imports the builder).
"""
