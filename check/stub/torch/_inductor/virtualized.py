"""Stand-in for torch/_inductor/virtualized.py: V.set_choices_handler and
V.choices over a (here process-wide) handler slot."""
from torch._inductor import config


class _Slot:
    def __init__(self):
        self.value = None

    def _get_handler(self, check_poisoned=True):
        if self.value is None:
            from torch._inductor.choices import InductorChoices
            self.value = (config.inductor_choices_class() if config.inductor_choices_class
                          else InductorChoices())
        return self.value

    def _set_handler(self, value):
        self.value = value


_choices = _Slot()


class _V:
    graph = None

    @staticmethod
    def set_choices_handler(h):
        _choices._set_handler(h)

    @property
    def choices(self):
        return _choices._get_handler()


V = _V()
