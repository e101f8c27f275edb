"""LoCoMo (Maharana et al., ACL 2024): loader, ingest, evidence retrieval, temporal answerer, scoring.

The data (CC BY-NC 4.0) is read from ``${paths.data_dir}/locomo/`` or ``dataset.path``; nothing of it is
copied into the project.
"""
