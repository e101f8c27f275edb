"""Reports generated from MLflow runs: ``memlab report <name>`` runs ``memlab.reports.<name>.main``."""
