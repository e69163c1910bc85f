//! The registry of games: one table, at the foot of this file, from which the command line,
//! the server and the fuzz targets all take their games.
//!
//! Its items are written here, but for [`AnyGame::parse`]: `crate::position` writes that from
//! the same table, beside the readers it calls, which take options naming a [`GameKind`];
//! written here, it would tie this file and that one to each other.
//!
//! From the table come [`GameKind`] (the names front ends check, list and suggest from,
//! [`GameKind::from_name`], each game's help text [`GameKind::help`]), [`GameKind::name`], [`GameKind::default_algorithm`],
//! [`GameKind::is_multi`], [`GameKind::ALL`] and [`GameKind::TWO_PLAYER`], [`AnyGame`] with
//! [`AnyGame::parse`] and [`AnyGame::visit`], the fuzz targets' games, the server's games ([`GameKind::SERVED`]) and the
//! games that may have opening books ([`GameKind::BOOKS`]).
//!
//! # Adding a game
//!
//! 1. Write the game in the engine (`engine/src/games/...`), with its `Game` and `Notation`.
//! 2. Give it a [`Describe`] impl, in `app/src/games/describe.rs`, and a function that reads
//!    its position argument, `fn(&GameOptions) -> Result<TheGame, PositionError>`, in
//!    `app/src/position.rs`.
//! 3. Add one line to the table below: its help text as a doc comment, then
//!    `Variant = "name", TheGame, DefaultAlgorithm, read_function;` (the reader's name in
//!    `position.rs`, where it is called) in `two_player` (a game
//!    whose reader sets it up as one of several types, as Connect Four's boards are, ends its
//!    line with `=> any`, its reader returns an `AnyGame`, and its other types are listed in
//!    `shapes`; a game of
//!    the chance and n-player model, which only `solve` searches, goes in `multi` as
//!    `Variant = "name";`, and `solve`'s setup in `commands/solve_multi.rs`). Add the variant to
//!    `served` for the server's page to offer it, to `books` if its table key is the
//!    position itself.
//!
//! The order of the lines is the order `--help` lists the games in. The `parse_move` fuzz
//! target (`fuzz/fuzz_targets/parse_move.rs`) sets each two-player game up at its start; a
//! game without one (it needs a position or parameters) gets an arm there, which it asks for.

mod describe;

pub use describe::Describe;

use cutoff::games::perfect::connect4::{Connect4, Fixed128, Fixed64, Geometry, Shape};
use cutoff::games::perfect::control::Control;
use cutoff::games::perfect::random_tree::RandomTree;
use cutoff::games::perfect::sim::Sim;
use cutoff::games::perfect::takeaway::TakeAway;
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::games::perfect::tree::Tree;
use cutoff::{Algorithm, Value};

impl AnyGame {
    /// The game's name as the command line spells it.
    pub fn name(&self) -> &'static str {
        struct Name;
        impl GameVisitor for Name {
            type Output = &'static str;
            fn visit<G: Describe>(self, game: &G) -> &'static str {
                game.name()
            }
        }
        self.visit(Name)
    }

    /// Turns a value from the side to move at the start into the one the commands report:
    /// +1, but -1 for a tree with a MIN root, whose values are reported in the leaves' scale
    /// (MAX's view).
    pub fn scale(&self) -> Value {
        match self {
            AnyGame::Tree(t) => t.root_side().sign(),
            _ => 1,
        }
    }
}

/// Work written once for every game: [`AnyGame::visit`] calls [`GameVisitor::visit`] with the
/// game's concrete type.
pub trait GameVisitor {
    /// What the work returns.
    type Output;
    /// Does the work on `game`, whose start position ([`cutoff::Game::initial`]) is the one given.
    fn visit<G: Describe>(self, game: &G) -> Self::Output;
}

/// The game's value range ([`cutoff::Game::value_range`]).
pub struct RangeOf;

impl GameVisitor for RangeOf {
    type Output = (cutoff::Value, cutoff::Value);
    fn visit<G: Describe>(self, game: &G) -> Self::Output {
        game.value_range()
    }
}

/// Work written once for every Connect Four shape: [`with_shape`](crate::position::with_shape) hands it the empty board
/// on the narrowest geometry that holds it.
pub trait ShapeVisitor {
    /// What the work returns.
    type Output;
    /// Does the work from `start`, the empty board.
    fn visit<G: Geometry>(self, start: Connect4<G>) -> Self::Output
    where
        Connect4<G>: Describe + IntoAnyGame;
}

/// A Connect Four game whose shape is compiled in ([`Fixed64`], [`Fixed128`]).
pub trait Compiled {
    /// Its width, height and winning line.
    const SHAPE: (u32, u32, u32);
    /// The empty board.
    fn start() -> Self;
}

impl<const W: u32, const H: u32, const K: u32> Compiled for Connect4<Fixed64<W, H, K>> {
    const SHAPE: (u32, u32, u32) = Fixed64::<W, H, K>::SHAPE;
    fn start() -> Self {
        Connect4::empty(Fixed64::new())
    }
}

impl<const W: u32, const H: u32, const K: u32> Compiled for Connect4<Fixed128<W, H, K>> {
    const SHAPE: (u32, u32, u32) = Fixed128::<W, H, K>::SHAPE;
    fn start() -> Self {
        Connect4::empty(Fixed128::new())
    }
}

/// A Connect Four game as the one [`AnyGame`] variant that holds its geometry.
pub trait IntoAnyGame {
    /// The game, boxed in its variant.
    fn into_any(self) -> AnyGame;
}

impl IntoAnyGame for Connect4 {
    fn into_any(self) -> AnyGame {
        AnyGame::Connect4(Box::new(self))
    }
}

/// Writes the registry's items from its table, but for [`AnyGame::parse`], which
/// `crate::position` writes from it beside the readers it calls; see the [module](self)
/// documentation.
macro_rules! write_games {
    (
        two_player {
            $( $(#[doc = $doc:literal])* $kind:ident = $name:literal, $game:ty, $algo:ident, $parse:path $(=> $any:ident)?; )+
        }
        multi {
            $( $(#[doc = $mdoc:literal])* $mkind:ident = $mname:literal; )+
        }
        shapes {
            $( $(#[$sdoc:meta])* $skind:ident = $sgame:ty, of $sof:ident $(, $compiled:ident)?; )*
        }
        served [ $( $served:ident ),* ];
        books [ $( $book:ident ),* ];
    ) => {
        /// A game the command line names: the two-player games, then those of the chance and
        /// n-player model ([`cutoff::multi`]). Generated from the registry
        /// ([`crate::games`]), which says how to add one.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum GameKind {
            $( $(#[doc = $doc])* $kind, )+
            $( $(#[doc = $mdoc])* $mkind, )+
        }

        impl GameKind {
            /// Every game, in the registry's order.
            pub const ALL: &'static [GameKind] =
                &[$( GameKind::$kind, )+ $( GameKind::$mkind, )+];

            /// The two-player games, which [`AnyGame::parse`] sets up.
            pub const TWO_PLAYER: &'static [GameKind] = &[$( GameKind::$kind, )+];

            /// The games the server's page plays.
            pub const SERVED: &'static [GameKind] = &[$( GameKind::$served, )*];

            /// The games whose table key is the position itself, one to one up to the mirror
            /// image, so that a book keyed by it cannot mistake one position for another.
            pub const BOOKS: &'static [GameKind] = &[$( GameKind::$book, )*];

            /// The name the command line uses.
            pub const fn name(self) -> &'static str {
                match self {
                    $( GameKind::$kind => $name, )+
                    $( GameKind::$mkind => $mname, )+
                }
            }

            /// The game named `name` exactly, if there is one.
            pub fn from_name(name: &str) -> Option<GameKind> {
                GameKind::ALL.iter().copied().find(|g| g.name() == name)
            }

            /// One line on the game, for a front end's list of games (the registry's doc
            /// comment, without its final full stop).
            pub fn help(self) -> &'static str {
                let doc: &'static str = match self {
                    $( GameKind::$kind => concat!($($doc),*), )+
                    $( GameKind::$mkind => concat!($($mdoc),*), )+
                };
                let doc = doc.trim();
                doc.strip_suffix('.').unwrap_or(doc)
            }

            /// The game's fastest exact algorithm: its own theory for the impartial games, the
            /// null-window solver where the table and the game's knowledge pay, plain
            /// alpha-beta for trees (no transpositions, no knowledge, and their textbook node
            /// counts). The games of [`GameKind::is_multi`] are searched by the chance and
            /// n-player model; for them it is alpha-beta.
            pub fn default_algorithm(self) -> Algorithm {
                match self {
                    $( GameKind::$kind => Algorithm::$algo, )+
                    $( GameKind::$mkind => Algorithm::AlphaBeta, )+
                }
            }

            /// True for the games of the chance and n-player model ([`cutoff::multi`]), which
            /// only `solve` searches.
            pub fn is_multi(self) -> bool {
                matches!(self, $( GameKind::$mkind )|+)
            }
        }

        /// One of the engine's two-player games, set up at the position the command line
        /// gave: one variant for each game of [`GameKind::TWO_PLAYER`], named as it.
        #[derive(Clone, Debug)]
        pub enum AnyGame {
            $( $(#[doc = $doc])* $kind(Box<$game>), )+
            $( $(#[$sdoc])* $skind(Box<$sgame>), )*
        }

        impl AnyGame {
            /// Runs `visitor` on the game.
            pub fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $( AnyGame::$kind(g) => visitor.visit(g.as_ref()), )+
                    $( AnyGame::$skind(g) => visitor.visit(g.as_ref()), )*
                }
            }

            /// The game's kind.
            pub fn kind(&self) -> GameKind {
                match self {
                    $( AnyGame::$kind(_) => GameKind::$kind, )+
                    $( AnyGame::$skind(_) => GameKind::$sof, )*
                }
            }
        }

        $(
            impl IntoAnyGame for $sgame {
                fn into_any(self) -> AnyGame {
                    AnyGame::$skind(Box::new(self))
                }
            }
        )*

        /// Runs `work` on the empty board of `shape` where the registry compiles that shape
        /// in (the `shapes` marked `compiled`), else hands `work` back.
        pub fn visit_compiled<V: ShapeVisitor>(
            shape: (u32, u32, u32),
            work: V,
        ) -> Result<V::Output, V> {
            $( $(
                // `$compiled` only marks the line: a repetition must name a capture.
                let _ = stringify!($compiled);
                if shape == <$sgame as Compiled>::SHAPE {
                    return Ok(work.visit(<$sgame as Compiled>::start()));
                }
            )? )*
            Err(work)
        }
    };
}

/// The registry's table, handed to `$write`: `write_games!` here, and `crate::position`'s
/// writer of [`AnyGame::parse`], in whose file are the readers the lines name (bare, as
/// that file's own functions).
macro_rules! registry {
    ($write:ident) => {
        $write! {
            two_player {
                /// Take 1-3 sticks; whoever takes the last one loses.
                Matchsticks = "matchsticks", TakeAway, Theory, matchsticks;
                /// Take 1-2 stones; whoever cannot move loses.
                Stones = "stones", TakeAway, Theory, stones;
                /// Tic-tac-toe.
                Tictactoe = "tictactoe", TicTacToe, Solve, tictactoe;
                /// The control game (Node Kayles) on an adjacency matrix.
                Control = "control", Control, Theory, control;
                /// A hand-written tree from a file.
                Tree = "tree", Tree, AlphaBeta, tree;
                /// A uniform random tree.
                Random = "random", RandomTree, AlphaBeta, random;
                /// Connect Four, 7x6 unless --board and --connect say otherwise.
                Connect4 = "connect4", Connect4, Solve, connect4 => any;
                /// Sim on K6.
                Sim = "sim", Sim, Solve, sim;
            }
            multi {
                /// Pig, the dice game, or Piglet, for 2 to 8 players (chance nodes: `solve` only).
                Pig = "pig";
                /// A random tree with chance nodes, MAX, CHANCE, MIN, CHANCE levels (`solve` only).
                Chance = "chance";
            }
            shapes {
                /// Connect Four on another board of at most 64 bits, or another line length.
                Connect4Board64 = Connect4<Shape<u64>>, of Connect4;
                /// Connect Four on a board of more than 64 bits.
                Connect4Board128 = Connect4<Shape<u128>>, of Connect4;
                // The boards people ask for most, their shapes compiled in (`Fixed64`, `Fixed128`):
                // 1.5-2x faster than the run-time board (docs/measurements/connect4-sizes.md).
                /// Connect Four on 6x6, compiled in.
                Connect4C6x6 = Connect4<Fixed64<6, 6, 4>>, of Connect4, compiled;
                /// Connect Four on 6x7, compiled in.
                Connect4C6x7 = Connect4<Fixed64<6, 7, 4>>, of Connect4, compiled;
                /// Connect Four on 7x7, compiled in.
                Connect4C7x7 = Connect4<Fixed64<7, 7, 4>>, of Connect4, compiled;
                /// Connect Four on 8x6, compiled in.
                Connect4C8x6 = Connect4<Fixed64<8, 6, 4>>, of Connect4, compiled;
                /// Connect Four on 8x7, compiled in.
                Connect4C8x7 = Connect4<Fixed64<8, 7, 4>>, of Connect4, compiled;
                /// Connect Four on 9x5, compiled in.
                Connect4C9x5 = Connect4<Fixed64<9, 5, 4>>, of Connect4, compiled;
                /// Connect Four on 8x5, compiled in.
                Connect4C8x5 = Connect4<Fixed64<8, 5, 4>>, of Connect4, compiled;
                /// Connect Four on 10x4, compiled in.
                Connect4C10x4 = Connect4<Fixed64<10, 4, 4>>, of Connect4, compiled;
                /// Connect Four on 8x8, compiled in.
                Connect4C8x8 = Connect4<Fixed128<8, 8, 4>>, of Connect4, compiled;
                /// Connect Four on 10x6, compiled in.
                Connect4C10x6 = Connect4<Fixed128<10, 6, 4>>, of Connect4, compiled;
                /// Connect Four on 7x9, 5 in a row, compiled in.
                Connect4C7x9k5 = Connect4<Fixed128<7, 9, 5>>, of Connect4, compiled;
            }
            served [Connect4, Tictactoe];
            books [Connect4];
        }
    };
}

// For `crate::position`, which writes `AnyGame::parse` from the table.
pub(crate) use registry;

registry!(write_games);

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The games' names as a list in words: `a`, `a or b`, `a, b or c`.
pub fn or_list(games: &[GameKind]) -> String {
    match games.split_last() {
        None => String::new(),
        Some((last, [])) => last.name().to_string(),
        Some((last, rest)) => {
            let rest: Vec<&str> = rest.iter().map(|g| g.name()).collect();
            format!("{} or {}", rest.join(", "), last.name())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for &g in GameKind::ALL {
            assert_eq!(GameKind::from_name(g.name()), Some(g));
            assert!(!g.help().is_empty() && !g.help().ends_with('.'), "{g}");
            assert_eq!(g.is_multi(), !GameKind::TWO_PLAYER.contains(&g));
        }
        assert_eq!(GameKind::from_name("Connect4"), None);
        assert_eq!(GameKind::help(GameKind::Tictactoe), "Tic-tac-toe");
    }

    #[test]
    fn lists_in_words() {
        assert_eq!(or_list(&[]), "");
        assert_eq!(or_list(&[GameKind::Sim]), "sim");
        assert_eq!(or_list(GameKind::SERVED), "connect4 or tictactoe");
        assert_eq!(
            or_list(&[GameKind::Tree, GameKind::Random, GameKind::Pig]),
            "tree, random or pig"
        );
    }
}
