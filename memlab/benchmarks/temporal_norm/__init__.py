"""The temporal-expression benchmark (``dataset=temporal_norm``) over Duckling's English time corpus."""
