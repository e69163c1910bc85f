//! Every game's move notation: `Notation::parse_move`, at a position reached by a few moves
//! the input chooses. The first byte picks the game among the registry's two-player games
//! (`GameKind::TWO_PLAYER`, `cli/src/games.rs`), and the bytes after it its parameters where
//! it has some (a game without is set up at its start, as `cutoff solve NAME`), the next byte the number of moves to play, then one byte per move (an
//! index into the legal moves); the rest is the move text. A move that parses is legal, and
//! formats back to text that parses to it; every legal move reads back through
//! `parse_move(format_move(..))`.
#![no_main]

use cutoff::games::perfect::control::Control;
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::takeaway::TakeAway;
use cutoff::games::perfect::tree::Tree;
use cutoff::{MoveBuffer, Notation, Player};
use cutoff_app::position::{AnyGame, Describe, GameOptions, GameKind, GameVisitor};
use cutoff_fuzz::{check_message, text, MessageRules, STRICT};
use libfuzzer_sys::fuzz_target;

/// What holds today for the control game's and the take-away games' `parse_move`: nothing.
/// Both quote the move text whole and raw (`invalid move '<text>': expected a vertex number
/// 1 to N`, `invalid move '<text>': expected the number of items to take (..)`, `vertex <text>
/// is out of range`), so a long text makes a long message and a newline or an escape sequence
/// in it reaches the message. Set to `STRICT` once they quote it as the other games do
/// (`cutoff::game::quote`).
const RAW_TEXT: MessageRules = MessageRules {
    short: false,
    printable: false,
};

/// A hand-written tree with labelled and unlabelled children.
const TREE: &str = "P1:(A:(3 11) B:(2 13 7 8 6)) (x.y:(0 4 5) (1 -15)) z_2:9";

/// A little reader over the input's bytes.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn take(&mut self, n: usize) -> &[u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }
}

fn exercise<G: Notation>(g: &G, input: &mut Bytes, rules: MessageRules) {
    let steps = input.byte() as usize % 16;
    let path = input.take(steps).to_vec();
    let text = text(input.0);
    let mut pos = g.initial();
    let mut moves = G::Moves::default();
    for &c in &path {
        if g.outcome(&pos).is_some() {
            break;
        }
        g.moves(&pos, &mut moves);
        let m = moves.as_slice();
        pos = g.play(&pos, m[c as usize % m.len()]);
    }
    let live = g.outcome(&pos).is_none();
    if live {
        g.moves(&pos, &mut moves);
        for &mv in moves.as_slice() {
            let s = g.format_move(&pos, mv);
            assert_eq!(g.parse_move(&pos, &s), Ok(mv), "{}: move {s:?}", g.name());
        }
    }
    match g.parse_move(&pos, &text) {
        Ok(mv) => {
            if live {
                assert!(
                    moves.as_slice().contains(&mv),
                    "{}: {text:?} parsed to {mv:?}, not a legal move",
                    g.name()
                );
            }
            let s = g.format_move(&pos, mv);
            assert_eq!(
                g.parse_move(&pos, &s),
                Ok(mv),
                "{}: {text:?} as {s:?}",
                g.name()
            );
        }
        Err(e) => check_message(g.name(), &e.0, rules),
    }
}

/// [`exercise`] on a game of any type.
struct Exercise<'a, 'b>(&'a mut Bytes<'b>);

impl GameVisitor for Exercise<'_, '_> {
    type Output = ();
    fn visit<G: Describe>(self, game: &G) {
        exercise(game, self.0, STRICT)
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let kind = GameKind::TWO_PLAYER[input.byte() as usize % GameKind::TWO_PLAYER.len()];
    match kind {
        GameKind::Control => {
            // 1 to 12 vertices, edges from the bits of the next 8 bytes.
            let n = 1 + input.byte() as usize % 12;
            let bits = input
                .take(8)
                .iter()
                .fold(0u64, |a, &b| a << 8 | u64::from(b));
            let edges: Vec<(usize, usize)> = (0..64)
                .filter(|k| bits >> k & 1 == 1)
                .map(|k| (k % n, (k / n + k) % n))
                .collect();
            let g = Control::from_edges(n, &edges).expect("a valid graph");
            exercise(&g, &mut input, RAW_TEXT)
        }
        GameKind::Matchsticks | GameKind::Stones => {
            let n = u32::from(input.byte()) << 2 | u32::from(input.byte() & 3);
            let count = 1 + input.byte() as usize % 9;
            let takes: Vec<u32> = input
                .take(count)
                .iter()
                .map(|&b| u32::from(b % 24))
                .collect();
            let misere = input.byte() & 1 == 1;
            match TakeAway::new(n, &takes, misere) {
                Ok(g) => exercise(&g, &mut input, RAW_TEXT),
                // Any message: these quote only numbers.
                Err(e) => check_message("TakeAway::new", &e.0, STRICT),
            }
        }
        GameKind::Tree => {
            let side = if input.byte() & 1 == 0 {
                Player::First
            } else {
                Player::Second
            };
            let g = Tree::parse(TREE, side).expect("the tree parses");
            exercise(&g, &mut input, STRICT)
        }
        GameKind::Random => {
            let b = 1 + input.byte() as usize % 8;
            let depth = input.byte() as usize % 6;
            let seed = u64::from(input.byte());
            let order =
                [Order::Random, Order::BestFirst, Order::WorstFirst][input.byte() as usize % 3];
            let g = RandomTree::new(b, depth, seed, order).expect("valid parameters");
            exercise(&g, &mut input, STRICT)
        }
        // Every other game at its start: a new game that needs a position needs its arm above.
        _ => match AnyGame::parse(&GameOptions::new(kind, None)) {
            Ok(game) => game.visit(Exercise(&mut input)),
            Err(e) => panic!("{kind} has no start position: give it an arm in parse_move ({e})"),
        },
    }
});
