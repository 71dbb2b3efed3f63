"""Minimal stand-in for torch._inductor.autoheuristic.learnedheuristic_interface
(mmrank check/emit).  Not PyTorch code."""
from typing import Optional

from torch._inductor.autoheuristic.autoheuristic_utils import AHContext, AHMetadata, Choice


class LearnedHeuristic:
    def check_precondition(self, metadata: AHMetadata, context: AHContext) -> bool:
        return True

    def get_name(self) -> str:
        return ""


class LearnedHeuristicDecision(LearnedHeuristic):
    def get_choice(self, idx: int) -> Optional[str]:
        return None

    def get_best_choices(self, context: AHContext) -> Optional[list[tuple[float, int]]]:
        return []

    def get_decisions_ranked(self, context: AHContext) -> Optional[list[str]]:
        """spec §7.3: the leaf order, indices mapped to names (out of range
        dropped); the confidence threshold is not applied."""
        best = self.get_best_choices(context)
        if best is None:
            return None
        names = [self.get_choice(i) for _, i in best]
        return [c for c in names if c is not None]
