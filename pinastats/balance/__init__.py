"""A designer's lab: fair starting scores, what coasters are worth, and what-if rules."""
