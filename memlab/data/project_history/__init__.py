"""Generated project histories (``memlab.project_history/1``): the schema, the builtin history, the generator."""
