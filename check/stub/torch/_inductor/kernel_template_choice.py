"""Stand-in for torch/_inductor/kernel_template_choice.py: the attributes
mmrank.inductor reads (template, params, extra_kwargs, layout, inputs)."""


class DictKernelTemplateParams:
    def __init__(self, kwargs):
        self.kwargs = dict(kwargs)

    def to_kwargs(self):
        return dict(self.kwargs)


class KernelTemplateChoice:
    def __init__(self, template, params, extra_kwargs, layout, inputs):
        self.template = template
        self.params = params
        self.extra_kwargs = extra_kwargs
        self.layout = layout
        self.inputs = inputs
