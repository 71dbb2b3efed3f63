"""Stand-in: the one setting mmrank_inductor changes."""
inductor_choices_class = None
