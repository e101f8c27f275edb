"""Run tracking. Only the modules in this package import mlflow."""
