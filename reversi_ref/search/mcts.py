"""Monte Carlo tree search (UCT) for several players, with playouts cut off by the evaluation.

Each iteration walks down the tree by UCB1 (each node holds the reward of the player who moved
into it, as in max^n), adds one child, plays a short playout (a few moves, each the better by
static cell score of two random legal moves) and values the position reached: a finished game
by places (RULES.md 7), otherwise each player's evaluation against its best opponent, squashed
into 0..1.  The move played is the most visited child of the root.

Only building-phase positions grow the tree; the bombing phase and the end of the game are
leaves.
"""

from __future__ import annotations

import math
import random
import time
from typing import List, Optional

from ..engine import BOMB, BUILD, OVER
from ..engine.core import Engine
from .alphabeta import Searcher
from .evaluate import Evaluator
from .timing import NO_DEADLINE, Clock

EXPLORATION = 0.9


class Node:
    """A tree node: the move that led here, who made it, and the statistics of that player."""

    __slots__ = ("move", "player", "visits", "total", "children", "untried")

    def __init__(self, move: int, player: int) -> None:
        self.move = move
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.children: List["Node"] = []
        self.untried: Optional[List[int]] = None


class Mcts:
    """UCT search over one engine; `run` returns the chosen engine move."""

    def __init__(self, engine: Engine, evaluator: Evaluator, rng: random.Random,
                 clock: Clock = time.monotonic, playout_depth: int = 4) -> None:
        self.engine = engine
        self.evaluator = evaluator
        self.rng = rng
        self.clock = clock
        self.playout_depth = playout_depth
        self.static = Searcher._static_scores(evaluator.analysis)
        self.nodes = 0
        self.iterations = 0
        self.depth = 0

    def ordered(self, moves: List[int]) -> List[int]:
        """`moves` with the best static target last (expansion pops from the end)."""
        static = self.static
        return sorted(moves, key=lambda m: (static[m >> 5], -m))

    def rewards(self) -> List[float]:
        """Each player's reward in 0..1 for the engine's position (index = player)."""
        e = self.engine
        n = e.players
        counts = e.counts
        rewards = [0.0] * (n + 1)
        alive = e.players_in_game()
        if len(alive) <= 1:
            for p in alive:
                rewards[p] = 1.0
            return rewards
        if e.phase == OVER:
            for p in alive:
                score = 0.0
                for o in alive:
                    if o != p:
                        if counts[p] > counts[o]:
                            score += 1.0
                        elif counts[p] == counts[o]:
                            score += 0.5
                rewards[p] = score / (len(alive) - 1)
            return rewards
        if e.phase == BOMB:
            values = [100 * counts[p] for p in range(n + 1)]
        else:
            evaluator = self.evaluator
            values = list(evaluator.player_values(evaluator.progress()))
        stones = sum(counts[p] for p in alive)
        scale = 100.0 * (stones / len(alive) + 1.0)
        for p in alive:
            best = max(values[o] for o in alive if o != p)
            d = values[p] - best
            rewards[p] = 0.5 + 0.5 * d / (abs(d) + scale)
        return rewards

    def playout_move(self, moves: List[int]) -> int:
        """The better (by static score) of two random moves."""
        rng = self.rng
        a = moves[rng.randrange(len(moves))]
        if len(moves) == 1:
            return a
        b = moves[rng.randrange(len(moves))]
        static = self.static
        return a if static[a >> 5] >= static[b >> 5] else b

    def run(self, iterations: int, deadline: float = NO_DEADLINE) -> int:
        """Search from the engine's position (phase 1, somebody to move) for `iterations`
        iterations or until `deadline`; the most visited root move."""
        e = self.engine
        if e.phase != BUILD:
            raise ValueError("MCTS searches building-phase positions only")
        root = Node(-1, 0)
        root.untried = self.ordered(e.legal_moves())
        if len(root.untried) == 1:
            return root.untried[0]
        clock = self.clock
        done = 0
        while done < iterations:
            if done and clock() >= deadline:
                break
            done += 1
            node = root
            path = [root]
            made = 0
            # Selection.
            while node.untried is not None and not node.untried and node.children:
                log_n = math.log(node.visits)
                best_child = node.children[0]
                best_score = -1.0
                for child in node.children:
                    score = child.total / child.visits + EXPLORATION * math.sqrt(
                        log_n / child.visits)
                    if score > best_score:
                        best_score = score
                        best_child = child
                node = best_child
                e.make(node.move)
                made += 1
                path.append(node)
            # Expansion.
            if e.phase == BUILD:
                if node.untried is None:
                    node.untried = self.ordered(e.legal_moves())
                if node.untried:
                    player = e.to_move
                    move = node.untried.pop()
                    e.make(move)
                    made += 1
                    child = Node(move, player)
                    node.children.append(child)
                    node = child
                    path.append(node)
            # Playout.
            for _ in range(self.playout_depth):
                if e.phase != BUILD:
                    break
                e.make(self.playout_move(e.legal_moves()))
                made += 1
            self.nodes += made
            if len(path) - 1 > self.depth:
                self.depth = len(path) - 1
            rewards = self.rewards()
            for _ in range(made):
                e.unmake()
            for visited in path:
                visited.visits += 1
                visited.total += rewards[visited.player]
        self.iterations = done
        best = max(root.children, key=lambda c: (c.visits, c.total))
        return best.move
