"""cutoff.openspiel against OpenSpiel itself: the values of its alpha-beta on its own small
perfect-information games (with fewer nodes), and its exploitability of cutoff's CFR
strategies. The tests that need OpenSpiel skip, saying so, where it is not installed
(`pip install open_spiel`); the whole file runs in a few seconds.

OpenSpiel's nodes are counted by cutoff.openspiel.alpha_beta: each call of OpenSpiel's node
routine (minimax._alpha_beta) is one state entered, the root and terminal states included,
as cutoff counts its own nodes.
"""

import importlib.util
import pathlib
import random
import sys

import pytest

HAVE_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
needs_openspiel = pytest.mark.skipif(
    not HAVE_OPENSPIEL, reason="OpenSpiel is not installed (pip install open_spiel)"
)

END_EASY = pathlib.Path(__file__).resolve().parents[2] / "positions/connect4/end-easy.txt"


def test_imports_without_openspiel(monkeypatch):
    # The module imports with no OpenSpiel; a call that needs it says what to install.
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    import cutoff.openspiel as co

    with pytest.raises(ImportError, match="pip install open_spiel"):
        co.solve(object())
    with pytest.raises(ImportError, match="pip install open_spiel"):
        co.policy("kuhn_poker", [])


def _random_states(game, count, seed, min_moves=0):
    """`count` states reached by random play from the initial state, terminal ones among
    them, each after a random number of moves (at least `min_moves` where the game lasts)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        s = game.new_initial_state()
        stop = rng.randint(min_moves, game.max_game_length())
        while not s.is_terminal() and len(s.history()) < stop:
            s.apply_action(rng.choice(s.legal_actions()))
        out.append(s)
    return out


def _check(state, *, nodes_per_state=False):
    """cutoff's value of `state` is OpenSpiel alpha-beta's, from both views; returns the two
    node counts."""
    import cutoff.openspiel as co

    r = co.solve(state)
    if state.is_terminal():
        assert r.returns == tuple(state.returns())
        return 0, 0
    p = state.current_player()
    v, _, nodes = co.alpha_beta(state)
    assert r.value == v, (state.history(), r.value, v)
    assert r.player == p
    assert r.value_player0 == (v if p == 0 else -v)
    assert r.returns == (r.value_player0, -r.value_player0)
    # The best action keeps the value.
    assert r.best_action in state.legal_actions()
    child = state.child(r.best_action)
    if child.is_terminal():
        assert child.player_return(p) == v
    else:
        assert co.alpha_beta(child, maximizing_player_id=p, count=False)[0] == v
    # The line is legal, with no pass in it, and starts with the best action.
    assert r.pv[:1] == [r.best_action]
    line = state.clone()
    for a in r.pv:
        assert not line.is_terminal() and a in line.legal_actions(), (state.history(), r.pv)
        line.apply_action(a)
    if nodes_per_state:
        assert r.nodes <= nodes, (state.history(), r.nodes, nodes)
    return r.nodes, nodes


@needs_openspiel
def test_tic_tac_toe_initial():
    import pyspiel

    import cutoff.openspiel as co

    state = pyspiel.load_game("tic_tac_toe").new_initial_state()
    r = co.solve(state)
    assert (r.value, r.value_player0, r.returns) == (0, 0, (0, 0))
    assert r.game.key_kind == "board"
    assert r.result is not None and r.to_dict()["value"] == 0
    ours, theirs = _check(state, nodes_per_state=True)
    assert theirs == 18297  # OpenSpiel 2.0.2's alpha-beta, actions in order
    assert ours < theirs
    # The states cutoff had OpenSpiel make (children looked at, states met again) are fewer
    # too: OpenSpiel makes one per node.
    assert co.solve(state).plays < theirs


@needs_openspiel
def test_tic_tac_toe_random_states():
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")
    states = _random_states(game, 120, seed=31)
    assert any(s.is_terminal() for s in states)
    totals = [sum(x) for x in zip(*(_check(s) for s in states))]
    assert totals[0] <= totals[1], totals


def _connect_four(moves):
    import pyspiel

    s = pyspiel.load_game("connect_four").new_initial_state()
    for c in moves:
        s.apply_action(int(c) - 1)  # cutoff's columns are 1-based, OpenSpiel's 0-based
    return s


@needs_openspiel
@pytest.mark.skipif(not END_EASY.exists(), reason="positions/connect4/end-easy.txt not found")
def test_connect_four_positions():
    lines = END_EASY.read_text().split("\n")
    rows = [ln.split() for ln in lines if ln.strip()]
    # Positions with few empty squares (OpenSpiel's search has no table: a 29-stone position
    # can take it 200,000 nodes), and all three outcomes.
    picked = [r for r in rows if len(r[0]) >= 33][:25]
    assert {int(r[1]) > 0 for r in picked} | {int(r[1]) < 0 for r in picked} == {True, False}
    ours = theirs = 0
    for moves, score in picked:
        s = _connect_four(moves)
        a, b = _check(s)
        ours += a
        theirs += b
        # The test set's exact score has the sign of OpenSpiel's win, draw or loss.
        import cutoff.openspiel as co

        assert co.solve(s).value == (int(score) > 0) - (int(score) < 0)
    assert ours <= theirs, (ours, theirs)


@needs_openspiel
def test_connect_four_random_states():
    import pyspiel

    game = pyspiel.load_game("connect_four")
    states = _random_states(game, 30, seed=4, min_moves=30)
    totals = [sum(x) for x in zip(*(_check(s) for s in states))]
    assert totals[0] <= totals[1], totals


@needs_openspiel
@pytest.mark.parametrize(
    "name",
    [
        "nim(pile_sizes=1;2;3;4)",  # misere by default
        "nim(pile_sizes=1;2;3;4,is_misere=false)",
        "mnk(m=3,n=4,k=3)",
        "hex(board_size=3)",
        "breakthrough(rows=4,columns=3)",
        "clobber(rows=3,columns=4)",
        # A player who closes a box moves again: two moves in a row by one player. Its
        # string leaves out who owns the boxes, so the key is the history.
        "dots_and_boxes(num_rows=1,num_cols=2)",
    ],
)
def test_other_games(name):
    import pyspiel

    import cutoff.openspiel as co

    game = pyspiel.load_game(name)
    ours, theirs = _check(game.new_initial_state())
    assert ours <= theirs, (ours, theirs)
    for s in _random_states(game, 10, seed=7):
        _check(s)
    expected = "history" if name.startswith("dots_and_boxes") else "board"
    assert co.SpielGame(game.new_initial_state()).key_kind == expected


@needs_openspiel
def test_keys_agree():
    # The history key (exact, no transpositions merged) gives the same values.
    import pyspiel

    import cutoff.openspiel as co

    game = pyspiel.load_game("tic_tac_toe")
    for s in _random_states(game, 20, seed=2):
        a = co.solve(s, key="board")
        b = co.solve(s, key="history")
        c = co.solve(s, key=lambda st: st.observation_string(0))
        assert a.value == b.value == c.value
    root = game.new_initial_state()
    assert co.solve(root, key="board").nodes < co.solve(root, key="history").nodes


@needs_openspiel
@pytest.mark.parametrize(
    "name, reason",
    [
        ("kuhn_poker", "PERFECT_INFORMATION"),
        ("kuhn_poker(players=3)", "3 players"),
        ("pig", "DETERMINISTIC"),
        ("matrix_rps", "SEQUENTIAL|PERFECT_INFORMATION"),
    ],
)
def test_refuses(name, reason):
    import pyspiel

    import cutoff.openspiel as co

    game = pyspiel.load_game(name)
    with pytest.raises(ValueError, match=reason) as e:
        co.solve(game.new_initial_state())
    assert "\n" not in str(e.value)


# ---------------------------------------------------------------------------------------
# policy(): cutoff's CFR strategies in OpenSpiel.


@needs_openspiel
@pytest.mark.parametrize("game_name", ["kuhn", "leduc"])
@pytest.mark.parametrize("algo", ["cfr", "dcfr"])
def test_policy_exploitability(game_name, algo):
    import cutoff
    import pyspiel
    from open_spiel.python.algorithms import exploitability, expected_game_score

    import cutoff.openspiel as co

    run = cutoff.cfr(game_name, algo=algo, iterations=300)
    game = pyspiel.load_game(game_name + "_poker")
    tp = co.policy(game, run)
    get = run.get if isinstance(run, dict) else (lambda k: getattr(run, k))
    # Both exploitabilities are NashConv / 2: the mean of what each player's best response
    # wins against the other's average strategy.
    ours = get("exploitability")
    theirs = exploitability.exploitability(game, tp)
    assert ours > 0
    assert abs(theirs - ours) <= 1e-9 * ours, (ours, theirs)
    assert abs(exploitability.nash_conv(game, tp) - get("nash_conv")) <= 1e-9 * ours
    # The first player's value under the average strategy.
    v = expected_game_score.policy_value(game.new_initial_state(), [tp, tp])[0]
    assert abs(v - get("value")) <= 1e-9
    # Every OpenSpiel information set got a distribution over its legal actions.
    arr, mask = tp.action_probability_array, tp.legal_actions_mask
    assert len(tp.state_lookup) == (12 if game_name == "kuhn" else 936)
    assert ((arr > 0) <= (mask > 0)).all()
    assert abs(arr.sum(axis=1) - 1).max() < 1e-12


@needs_openspiel
def test_policy_inputs():
    import cutoff
    import pyspiel
    from open_spiel.python.algorithms import exploitability

    import cutoff.openspiel as co

    run = cutoff.cfr("kuhn", algo="cfr+", iterations=100)
    strategy = run["strategy"] if isinstance(run, dict) else run.strategy
    e = exploitability.exploitability(pyspiel.load_game("kuhn_poker"), co.policy("kuhn_poker", strategy))
    assert e == exploitability.exploitability(
        pyspiel.load_game("kuhn_poker"), co.policy("kuhn_poker", run)
    )
    # A Kuhn strategy is not a Leduc one, and other games are refused.
    with pytest.raises(ValueError):
        co.policy("leduc_poker", run)
    with pytest.raises(ValueError, match="kuhn_poker and leduc_poker"):
        co.policy("leduc_poker(suit_isomorphism=true)", run)
    with pytest.raises(ValueError, match="kuhn_poker and leduc_poker"):
        co.policy("tic_tac_toe", run)


@needs_openspiel
def test_depth_limited_with_value_function():
    # A heuristic in OpenSpiel's units (player 0's view, as OpenSpiel's alpha-beta reads it
    # with maximizing_player_id=0), exact in hundredths: scale=100 keeps it exact in cutoff.
    import pyspiel
    from open_spiel.python.algorithms import minimax

    import cutoff.openspiel as co

    def centre(s):
        return sum((1 - 2 * (i % 2)) * (3 - abs(a - 3)) for i, a in enumerate(s.history())) / 100

    game = pyspiel.load_game("connect_four")
    for s in _random_states(game, 5, seed=1, min_moves=0)[:5]:
        if s.is_terminal():
            continue
        for depth in (1, 2, 3):
            theirs, _ = minimax.alpha_beta_search(
                game, state=s, value_function=centre, maximum_depth=depth, maximizing_player_id=0
            )
            for algo in ("alphabeta", "pvs"):
                r = co.solve(s, algo=algo, depth=depth, value_function=centre, scale=100)
                assert abs(r.value_player0 - theirs) < 1e-12, (s.history(), depth, algo)
