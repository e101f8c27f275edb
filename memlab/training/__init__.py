"""Fitting learned strategies (`memlab train ...`) and the shipped models with their cards."""
