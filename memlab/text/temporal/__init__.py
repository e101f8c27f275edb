"""Building blocks of the rule-based temporal resolver (calendar arithmetic, lexicon, rules, combination)."""
