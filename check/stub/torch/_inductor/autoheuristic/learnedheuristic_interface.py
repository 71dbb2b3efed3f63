"""Stand-in for torch/_inductor/autoheuristic/learnedheuristic_interface.py
(torch 2.11): LearnedHeuristicDecision.get_decisions_ranked maps the leaf's
(weight, index) pairs to names, dropping indices out of range."""


class LearnedHeuristic:
    def check_precondition(self, metadata, context):
        return True

    def get_name(self):
        return ""


class LearnedHeuristicDecision(LearnedHeuristic):
    def get_choice(self, idx):
        return None

    def get_best_choices(self, context):
        return []

    def get_decisions_ranked(self, context):
        best = self.get_best_choices(context)
        if best is None:
            return None
        names = [self.get_choice(i) for _, i in best]
        return [c for c in names if c is not None]
