"""Reading Duckling-format temporal-expression corpora into expected intervals."""
