//! What a front end shows of a position beyond the engine's [`Notation`]: [`Describe`] and
//! its impl for each two-player game of the registry ([`crate::games`]).

use cutoff::games::perfect::connect4::{Bitboard, Connect4, Geometry};
use cutoff::games::perfect::control::{Control, ControlPos};
use cutoff::games::perfect::random_tree::{RandomPos, RandomTree};
use cutoff::games::perfect::sim::{Sim, SimPos, EDGES};
use cutoff::games::perfect::takeaway::{TakeAway, TakePos};
use cutoff::games::perfect::tictactoe::{Board as TicTacToeBoard, TicTacToe};
use cutoff::games::perfect::tree::{Tree, TreePos};
use cutoff::{Notation, Player};

/// What a front end shows of a position besides the engine's [`Notation`]: a one-line
/// description (the board diagram, where a game has one, is [`Notation::diagram`]) and the
/// players' names.
pub trait Describe: Notation {
    /// The position in one line.
    fn describe(&self, pos: &Self::Pos) -> String;

    /// How a person calls `side`.
    fn side_name(&self, side: Player) -> &'static str {
        match side {
            Player::First => "first player",
            Player::Second => "second player",
        }
    }

    /// The side to move in `pos`, named.
    fn to_move_name(&self, pos: &Self::Pos) -> &'static str {
        self.side_name(self.to_move(pos))
    }

    /// The board, for a game whose board is chosen at run time and is not its default
    /// (Connect Four's `WxH`, with `/K` for another line length); `None` (the default)
    /// otherwise. The JSON reports give it, and the opening books and split files, which are
    /// for the default board, refuse any other.
    fn board(&self) -> Option<String> {
        None
    }

    /// What a table file written for this game must name ([`cutoff::tt::file`]): the game
    /// and every rule its table keys depend on; `None` (the default) for a game that keeps no
    /// table file.
    fn table_identity(&self) -> Option<String> {
        None
    }

    /// `pos`, reached by playing `path` from the position the command line gave as `root`,
    /// as a position argument `cutoff solve` takes for this game; `None` (the default) where
    /// the game cannot say it so (split files then describe the position in words).
    fn position_arg(
        &self,
        _root: Option<&str>,
        _path: &[String],
        _pos: &Self::Pos,
    ) -> Option<String> {
        None
    }

    /// The time `cutoff play` gives the engine a move where the person gave no budget:
    /// `None` (the default) to solve each move exactly, a duration for a game whose moves
    /// take longer to prove than a person waits.
    fn play_budget(&self) -> Option<std::time::Duration> {
        None
    }
}

impl Describe for TakeAway {
    fn describe(&self, pos: &TakePos) -> String {
        let what = match self.name() {
            "matchsticks" => "sticks",
            "stones" => "stones",
            _ => "items",
        };
        format!(
            "{} {what} left, {} to move",
            pos.items,
            self.side_name(pos.side)
        )
    }
}

impl Describe for TicTacToe {
    fn describe(&self, pos: &TicTacToeBoard) -> String {
        format!("{}, {} to move", pos.notation(), self.to_move_name(pos))
    }

    fn position_arg(&self, _: Option<&str>, _: &[String], pos: &TicTacToeBoard) -> Option<String> {
        Some(pos.notation())
    }

    fn side_name(&self, side: Player) -> &'static str {
        match side {
            Player::First => "X",
            Player::Second => "O",
        }
    }
}

/// The per-move budget of `cutoff play` on Connect Four boards beyond exact reach.
const PLAY_BUDGET: std::time::Duration = std::time::Duration::from_secs(3);

impl<G: Geometry> Describe for Connect4<G> {
    fn describe(&self, pos: &Bitboard<G::Word>) -> String {
        format!(
            "{} stones played, {} to move",
            pos.moves,
            self.to_move_name(pos)
        )
    }

    fn board(&self) -> Option<String> {
        let g = self.geometry();
        ((g.width(), g.height(), g.connect()) != (7, 6, 4)).then(|| self.shape_name())
    }

    fn table_identity(&self) -> Option<String> {
        let g = self.geometry();
        let shape = (g.width(), g.height(), g.connect());
        // The key form is part of the name (see `Geometry::key_form`): a file of keys in
        // another form is refused by name, not misread.
        let keys = match g.key_form().name() {
            "" => String::new(),
            form => format!(" {form}"),
        };
        Some(format!(
            "connect4 {}x{}/{}{keys}",
            shape.0, shape.1, shape.2
        ))
    }

    fn position_arg(
        &self,
        root: Option<&str>,
        path: &[String],
        _: &Bitboard<G::Word>,
    ) -> Option<String> {
        let root = root.unwrap_or("");
        if self.geometry().width() <= 9 && !root.contains(',') {
            return Some(format!("{root}{}", path.concat()));
        }
        // Columns past 9 need commas between them.
        let mut parts: Vec<&str> = Vec::new();
        if !root.is_empty() {
            parts.push(root);
        }
        parts.extend(path.iter().map(String::as_str));
        Some(parts.join(","))
    }

    fn side_name(&self, side: Player) -> &'static str {
        match side {
            Player::First => "X",
            Player::Second => "O",
        }
    }

    /// Boards larger than 7x6: the opening moves of 7x7 take minutes to prove, of 8x7 and
    /// beyond hours (docs/measurements/connect4-sizes.md); 7x6 and smaller stay exact.
    fn play_budget(&self) -> Option<std::time::Duration> {
        let g = self.geometry();
        (g.width() * g.height() > 42).then_some(PLAY_BUDGET)
    }
}

impl Describe for Control {
    fn describe(&self, pos: &ControlPos) -> String {
        let free: Vec<String> = (0..self.vertices())
            .filter(|&v| pos.free >> v & 1 != 0)
            .map(|v| (v + 1).to_string())
            .collect();
        let free = if free.is_empty() {
            "none".to_string()
        } else {
            free.join(" ")
        };
        format!(
            "free vertices: {free}; {} to move",
            self.side_name(pos.side)
        )
    }
}

impl Describe for Tree {
    fn describe(&self, pos: &TreePos) -> String {
        format!(
            "node {}, {} to move",
            self.name(pos.node),
            self.side_name(pos.side)
        )
    }

    fn side_name(&self, side: Player) -> &'static str {
        match side {
            Player::First => "MAX",
            Player::Second => "MIN",
        }
    }
}

impl Describe for RandomTree {
    fn describe(&self, pos: &RandomPos) -> String {
        format!(
            "a node {} plies above the leaves, {} to move",
            pos.depth,
            self.side_name(pos.side)
        )
    }

    fn side_name(&self, side: Player) -> &'static str {
        match side {
            Player::First => "MAX",
            Player::Second => "MIN",
        }
    }
}

impl Describe for Sim {
    fn describe(&self, pos: &SimPos) -> String {
        let edges = |mask: u16| {
            let list: Vec<String> = (0..EDGES as u8)
                .filter(|&e| mask >> e & 1 != 0)
                .map(|e| self.format_move(pos, e))
                .collect();
            if list.is_empty() {
                "none".to_string()
            } else {
                list.join(" ")
            }
        };
        format!(
            "first player's edges: {}; second player's: {}; {} to move",
            edges(pos.first),
            edges(pos.second),
            self.to_move_name(pos)
        )
    }
}
