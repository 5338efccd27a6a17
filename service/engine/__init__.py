"""Engine layer: pure functions from (index, symptom, context) to a language-neutral plan.

No I/O, clock, environment or globals; ties break by the order of the content.
"""
