"""Stand-in for torch/_inductor/choices.py InductorChoices: the base
_finalize_template_configs flattens the generators (as torch 2.11's);
get_ktc serves the params a test registered in PARAMS[(template uid,
op_name)]."""
from torch._inductor.kernel_template_choice import DictKernelTemplateParams, KernelTemplateChoice

PARAMS = {}


class InductorChoices:
    def _finalize_template_configs(self, template_choices, kernel_inputs, templates, op_name,
                                   kwarg_overrides=None):
        choices = []
        for gen in template_choices.values():
            choices.extend(gen)
        return choices

    def get_ktc(self, kernel_inputs, template, op_name, kwarg_overrides=None):
        for kw in PARAMS.get((template.uid, op_name), []):
            yield KernelTemplateChoice(template, DictKernelTemplateParams(kw), {"mm-ah": True},
                                       "layout-" + op_name, kernel_inputs)
