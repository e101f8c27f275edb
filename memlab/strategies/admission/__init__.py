"""Admission strategies: which records of a store are memories worth injecting (the ``admission`` conf group)."""
