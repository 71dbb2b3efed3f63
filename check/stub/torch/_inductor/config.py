"""Stand-in: the one setting mmrank.inductor changes."""
inductor_choices_class = None
