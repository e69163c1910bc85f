//! Reading `GAME [POSITION]` from the command line, for every subcommand that takes one: the
//! options ([`GameOptions`]), the reader of each game's position and [`AnyGame::parse`],
//! which the registry's table ([`crate::games`]) writes here beside them. The registry's
//! types and traits that a subcommand works with ([`Describe`], [`GameVisitor`], ...) are
//! re-exported here.
//!
//! [`AnyGame::parse`] turns the game's name, its position text and the options of the tree
//! games into one of the engine's games; [`AnyGame::visit`] hands it, with its concrete type,
//! to a [`GameVisitor`], so that a subcommand writes its work once as a generic function:
//!
//! ```
//! use cutoff_app::position::{AnyGame, Describe, GameOptions, GameKind, GameVisitor};
//!
//! struct Name;
//! impl GameVisitor for Name {
//!     type Output = String;
//!     fn visit<G: Describe>(self, game: &G) -> String {
//!         format!("{}: {}", game.name(), game.describe(&game.initial()))
//!     }
//! }
//!
//! let args = GameOptions::new(GameKind::Stones, Some("4"));
//! let game = AnyGame::parse(&args).unwrap();
//! assert_eq!(game.visit(Name), "stones: 4 stones left, first player to move");
//! ```

use cutoff::games::perfect::connect4::geometry::{board_bits, check_shape, read_shape};
use cutoff::games::perfect::connect4::{Connect4, Geometry, Shape};
use cutoff::games::perfect::control::Control;
use cutoff::games::perfect::random_tree::{Order, RandomTree};
use cutoff::games::perfect::sim::Sim;
use cutoff::games::perfect::takeaway::TakeAway;
use cutoff::games::perfect::tictactoe::TicTacToe;
use cutoff::games::perfect::tree::Tree;
use cutoff::multi::MultiAlgorithm;
use cutoff::{Algorithm, Player};

pub use crate::games::{
    AnyGame, Compiled, Describe, GameKind, GameVisitor, IntoAnyGame, RangeOf, ShapeVisitor,
};

/// A search from either family: the two-player engine's or one of the chance and n-player
/// model's ([`cutoff::multi`]), for the commands that take both (`solve`, `tree`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyAlgo {
    /// A two-player search.
    Two(Algorithm),
    /// A search of [`cutoff::multi`].
    Multi(MultiAlgorithm),
}

/// Why a game, its position or one of its options could not be read. Each message is one
/// line naming what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    /// An algorithm of neither family.
    #[error(
        "unknown algorithm '{}' (such as alphabeta, expectiminimax, star1 or maxn; --help lists them)",
        cutoff::game::quote(.0)
    )]
    UnknownAlgorithm(String),
    /// A tree's root kind other than `max` or `min`.
    #[error("unknown root kind '{0}' (expected max or min)")]
    UnknownRoot(String),
    /// A game with chance nodes, which only `solve` searches, given to another command.
    #[error("{0} has chance nodes: only `cutoff solve {0}` searches it")]
    ChanceOnly(GameKind),
    /// A game given without something it needs (its position, a tree option).
    #[error("{game} needs {what}")]
    Needs {
        /// The game.
        game: GameKind,
        /// What it needs, in words.
        what: &'static str,
    },
    /// A heap size that is not a number.
    #[error("invalid number of {what} '{text}' (expected a non-negative integer)")]
    BadCount {
        /// What is counted: sticks or stones.
        what: &'static str,
        /// The text given.
        text: String,
    },
    /// A position given to a random tree, which has none.
    #[error("random takes no position, got '{0}'")]
    RandomPosition(String),
    /// The file holding the position could not be read.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The game refused the position or its settings.
    #[error(transparent)]
    Game(#[from] cutoff::GameError),
}

/// Reads an algorithm of either family.
pub fn parse_any_algo(s: &str) -> Result<AnyAlgo, PositionError> {
    if let Ok(a) = s.parse::<Algorithm>() {
        return Ok(AnyAlgo::Two(a));
    }
    if let Ok(a) = s.parse::<MultiAlgorithm>() {
        return Ok(AnyAlgo::Multi(a));
    }
    // Both lists would run past the 200-byte error line: name a few, point to --help.
    Err(PositionError::UnknownAlgorithm(s.to_string()))
}

/// A game and its position as a front end gives them, with the options that only the tree
/// games read.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// The game.
    pub game: GameKind,
    /// The position: the number of items (matchsticks, stones), a board of 9 cells
    /// (tictactoe, optional), an adjacency matrix as rows joined by '/' or a file holding it
    /// (control), a tree file (tree), the columns played so far (connect4, optional), the
    /// edges coloured so far like "12 34" (sim, optional). Not used by random.
    pub position: Option<String>,
    /// Random trees: branching factor.
    pub branching: Option<usize>,
    /// Random trees: the tree's depth in plies.
    pub depth: Option<usize>,
    /// Random trees: seed.
    pub seed: u64,
    /// Random trees: move ordering (random, best-first, worst-first).
    pub order: Order,
    /// Trees: whether the root is a MAX or a MIN node.
    pub root: Player,
    /// Pig: number of players (2 to 8; default 2).
    pub players: Option<i64>,
    /// Pig: the score that wins (default 100).
    pub win_score: Option<i64>,
    /// Pig: faces of the die (Piglet: tails comes up one time in FACES; default 6).
    pub faces: Option<i64>,
    /// Pig: the game ends in a draw after this many moves (rolls and stops).
    pub horizon: Option<i64>,
    /// Pig: play Piglet, with a coin instead of the die.
    pub piglet: bool,
    /// Chance trees: outcomes of each chance node.
    pub outcomes: Option<usize>,
    /// Chance trees: outcome probabilities, uniform (the default) or random.
    pub probs: Option<String>,
    /// Connect Four's board and rule.
    pub shape: ShapeOptions,
}

/// The shape of a Connect Four game (`board` WxH and `connect` K), for every command that
/// takes a Connect Four position or file.
#[derive(Clone, Copy, Debug, Default)]
pub struct ShapeOptions {
    /// Connect Four: the board, WIDTHxHEIGHT (default 7x6): both at least 4, and
    /// width x (height + 1) at most 128. On boards wider than 9, separate the columns of the
    /// position with commas.
    pub board: Option<(u32, u32)>,
    /// Connect Four: stones in a winning line, 3 to 6 (default 4).
    pub connect: Option<u32>,
}

impl ShapeOptions {
    /// Whether either option was given.
    pub fn given(&self) -> bool {
        self.board.is_some() || self.connect.is_some()
    }

    /// The shape asked for, `(width, height, connect)`, 7x6 with four unless said otherwise.
    pub fn shape(&self) -> (u32, u32, u32) {
        let (w, h) = self.board.unwrap_or((7, 6));
        (w, h, self.connect.unwrap_or(4))
    }

    /// The shape for a file that may name its own (`file`, as `(width, height, connect)`):
    /// the file's, unless the options say otherwise, which is an error naming both.
    pub fn or_file(
        &self,
        path: &str,
        file: Option<(u32, u32, u32)>,
    ) -> Result<(u32, u32, u32), String> {
        match file {
            Some(f) if self.given() && self.shape() != f => Err(format!(
                "{path} is for the {} board, not the {} one the options ask for",
                shape_name(f),
                shape_name(self.shape())
            )),
            Some(f) => Ok(f),
            None => Ok(self.shape()),
        }
    }
}

/// A shape as the outputs write it: `WxH`, or `WxH/K` when K is not 4.
pub fn shape_name((w, h, k): (u32, u32, u32)) -> String {
    if k == 4 {
        format!("{w}x{h}")
    } else {
        format!("{w}x{h}/{k}")
    }
}

/// Runs `work` on the empty board of `shape` (`(width, height, connect)`): the compile-time
/// 7x6 geometry for the standard game, a compiled-in geometry for the shapes the registry
/// ([`crate::games`]) lists, else a run-time board on a 64- or 128-bit word, as narrow as it
/// fits. A shape outside the limits is an error naming them.
pub fn with_shape<V: ShapeVisitor>(
    (w, h, k): (u32, u32, u32),
    work: V,
) -> Result<V::Output, PositionError> {
    if (w, h, k) == (7, 6, 4) {
        return Ok(work.visit(Connect4::new()));
    }
    let work = match crate::games::visit_compiled((w, h, k), work) {
        Ok(done) => return Ok(done),
        Err(work) => work,
    };
    check_shape(w, h, k, 128)?;
    Ok(if board_bits(w, h) <= 64 {
        work.visit(Connect4::empty(Shape::<u64>::new(w, h, k)?))
    } else {
        work.visit(Connect4::empty(Shape::<u128>::new(w, h, k)?))
    })
}

impl GameOptions {
    /// The same on the board `shape` says.
    pub fn on(mut self, shape: ShapeOptions) -> GameOptions {
        self.shape = shape;
        self
    }

    /// `game` at `position`, every option at its default (as the command line's).
    pub fn new(game: GameKind, position: Option<&str>) -> GameOptions {
        GameOptions {
            game,
            position: position.map(str::to_string),
            branching: None,
            depth: None,
            seed: 1,
            order: Order::Random,
            root: Player::First,
            players: None,
            win_score: None,
            faces: None,
            horizon: None,
            piglet: false,
            outcomes: None,
            probs: None,
            shape: ShapeOptions::default(),
        }
    }
}

/// Reads a random tree's ordering.
pub fn parse_order(s: &str) -> Result<Order, cutoff::GameError> {
    s.parse()
}

/// Reads `max` or `min` as a tree root's player.
pub fn parse_root(s: &str) -> Result<Player, PositionError> {
    match s {
        "max" => Ok(Player::First),
        "min" => Ok(Player::Second),
        _ => Err(PositionError::UnknownRoot(s.to_string())),
    }
}

/// Writes [`AnyGame::parse`] from the registry's table ([`crate::games`]), whose lines name
/// the readers below.
macro_rules! write_parse {
    // A game's reader returns the game (wrapped here) or, marked `=> any`, an `AnyGame`
    // already (a game set up as one of several types).
    (@read $kind:ident, $parse:path, $args:ident) => {
        Ok(AnyGame::$kind(Box::new($parse($args)?)))
    };
    (@read $kind:ident, $parse:path, $args:ident, any) => {
        $parse($args)
    };
    (
        two_player {
            $( $(#[doc = $doc:literal])* $kind:ident = $name:literal, $game:ty, $algo:ident, $parse:path $(=> $any:ident)?; )+
        }
        multi {
            $( $(#[doc = $mdoc:literal])* $mkind:ident = $mname:literal; )+
        }
        // The Connect Four shapes and the lists of games: not read here.
        $( $rest:tt )*
    ) => {
        impl AnyGame {
            /// Sets up the game `args.game` at `args.position`; the error names what is wrong,
            /// in one line. The tree games read the options: `root` for `tree`, and
            /// `branching`, `depth`, `seed` and `order` for `random`.
            pub fn parse(args: &GameOptions) -> Result<AnyGame, PositionError> {
                match args.game {
                    $( GameKind::$kind => write_parse!(@read $kind, $parse, args $(, $any)?), )+
                    $( GameKind::$mkind )|+ => Err(PositionError::ChanceOnly(args.game)),
                }
            }
        }
    };
}

crate::games::registry!(write_parse);

/// `args.position`, or the error that `args.game` needs it (`what`, in words).
fn needs<'a>(args: &'a GameOptions, what: &'static str) -> Result<&'a str, PositionError> {
    args.position.as_deref().ok_or(PositionError::Needs {
        game: args.game,
        what,
    })
}

/// Reads `matchsticks N`.
pub fn matchsticks(args: &GameOptions) -> Result<TakeAway, PositionError> {
    let n = parse_count(needs(args, "the number of sticks, e.g. 6")?, "sticks")?;
    Ok(TakeAway::matchsticks(n)?)
}

/// Reads `stones N`.
pub fn stones(args: &GameOptions) -> Result<TakeAway, PositionError> {
    let n = parse_count(needs(args, "the number of stones, e.g. 4")?, "stones")?;
    Ok(TakeAway::stones(n)?)
}

/// Reads `tictactoe [BOARD]`.
pub fn tictactoe(args: &GameOptions) -> Result<TicTacToe, PositionError> {
    Ok(match &args.position {
        Some(board) => TicTacToe::from_board(board)?,
        None => TicTacToe::new(),
    })
}

/// Reads `control MATRIX`, the matrix written out or a file holding it.
pub fn control(args: &GameOptions) -> Result<Control, PositionError> {
    let spec = needs(
        args,
        "an adjacency matrix (rows joined by '/') or a file holding one",
    )?;
    let text = crate::files::control_text(spec)?;
    Ok(Control::parse(&text)?)
}

/// Reads `tree FILE` with its `--root`.
pub fn tree(args: &GameOptions) -> Result<Tree, PositionError> {
    let file = needs(args, "a tree file")?;
    let text = crate::files::read_file(file)?;
    Ok(Tree::parse(&text, args.root)?)
}

/// Reads `random --branching B --depth D` with its `--seed` and `--order`.
pub fn random(args: &GameOptions) -> Result<RandomTree, PositionError> {
    if let Some(p) = &args.position {
        return Err(PositionError::RandomPosition(p.clone()));
    }
    let b = args.branching.ok_or(PositionError::Needs {
        game: args.game,
        what: "\u{1}branching\u{2} B (and \u{1}depth\u{2} D)",
    })?;
    let d = args.depth.ok_or(PositionError::Needs {
        game: args.game,
        what: "\u{1}depth\u{2} D (and \u{1}branching\u{2} B)",
    })?;
    Ok(RandomTree::new(b, d, args.seed, args.order)?)
}

/// Reads `connect4 [MOVES] [--board WxH] [--connect K]`: the 7x6 board with four in a row
/// unless said otherwise, on the narrowest word its bitboard fits.
pub fn connect4(args: &GameOptions) -> Result<AnyGame, PositionError> {
    struct Play<'a>(&'a str);
    impl ShapeVisitor for Play<'_> {
        type Output = Result<AnyGame, PositionError>;
        fn visit<G: Geometry>(self, start: Connect4<G>) -> Self::Output
        where
            Connect4<G>: Describe + IntoAnyGame,
        {
            Ok(start.after(self.0)?.into_any())
        }
    }
    with_shape(
        args.shape.shape(),
        Play(args.position.as_deref().unwrap_or("")),
    )?
}

/// Reads a shape as the outputs write it ([`shape_name`]): `WxH`, or `WxH/K`.
pub fn parse_shape(s: &str) -> Result<(u32, u32, u32), String> {
    let (w, h, k) = read_shape(s).ok_or_else(|| {
        format!(
            "invalid board '{}' (expected WIDTHxHEIGHT or WIDTHxHEIGHT/K)",
            cutoff::game::quote(s)
        )
    })?;
    Ok((w, h, k.unwrap_or(4)))
}

/// Reads `--board WxH`: two numbers joined by `x`.
pub fn parse_board(s: &str) -> Result<(u32, u32), String> {
    match read_shape(s) {
        Some((w, h, None)) => Ok((w, h)),
        _ => Err(format!(
            "invalid board '{}' (expected WIDTHxHEIGHT, such as 7x6)",
            cutoff::game::quote(s)
        )),
    }
}

/// Reads `sim [EDGES]`.
pub fn sim(args: &GameOptions) -> Result<Sim, PositionError> {
    Ok(Sim::from_moves(args.position.as_deref().unwrap_or(""))?)
}

/// Reads a heap size.
fn parse_count(text: &str, what: &'static str) -> Result<u32, PositionError> {
    text.trim().parse().map_err(|_| PositionError::BadCount {
        what,
        text: text.to_string(),
    })
}
