//! Pig, the dice game, and Piglet, its coin-tossing miniature, for 2 to 8 players, made finite by
//! a horizon on the number of moves.
//!
//! # Rules
//!
//! - The player to move decides to roll or to stop. Stopping is allowed with a turn total of 0.
//!   Once the player's score plus the turn total reaches the win score, stopping is the only move.
//! - Stopping banks the turn total, and the turn passes to the next player round-robin.
//! - A roll is a chance node with faces 1 to `d`, each `1/d`. A 1 loses the turn total and
//!   passes the turn; any other face adds itself to the turn total.
//! - Piglet throws a coin instead: heads, with probability `1 - 1/d`, adds 1; tails, `1/d`, acts
//!   as the 1.
//! - Every roll or stop decision counts one move. The game ends when a banked score reaches the
//!   win score, or when the moves reach the horizon; a roll that is the horizon's last move ends
//!   the game before the die lands.
//! - Returns: the winner +1, every other player `-1/(n-1)`; all 0 when the horizon ends the game.
//!
//! Moves are listed roll first, then stop: under max^n's rule (keep the first child unless a
//! later one is strictly better) a player indifferent between them rolls.

use crate::game::{GameError, MoveBuffer, MoveList};
use crate::multi::{ChanceOutcome, MultiGame, Outcomes, MAX_OUTCOMES};
use crate::players::{Payoffs, Turn, MAX_PLAYERS};
use crate::rng::mix;

/// Largest win score (scores and turn totals fit in 16 bits with room to spare).
pub const MAX_WIN_SCORE: u32 = 10_000;

/// Largest horizon, in moves.
pub const MAX_HORIZON: u32 = 1_000;

/// A Pig move: a decision or a chance outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PigMove {
    /// Bank the turn total and pass the turn.
    #[default]
    Stop,
    /// Throw the die (or the coin).
    Roll,
    /// The die shows this face (1 loses the turn total).
    Face(u8),
    /// Piglet's coin shows heads: +1.
    Heads,
    /// Piglet's coin shows tails: the turn total is lost.
    Tails,
}

/// A Pig position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PigPos {
    /// Banked scores, in player order.
    pub scores: [u16; MAX_PLAYERS],
    /// The turn total of the player to move.
    pub total: u16,
    /// Moves made so far.
    pub moves: u16,
    /// The player whose turn it is.
    pub player: u8,
    /// True when the die is in the air (a chance node).
    pub rolling: bool,
}

/// Pig (or Piglet) with its parameters.
#[derive(Clone, Debug)]
pub struct Pig {
    players: usize,
    win: u16,
    faces: u8,
    horizon: u16,
    piglet: bool,
}

impl Pig {
    /// Pig for `players` players, to `win` points, with a `faces`-sided die (for Piglet, a coin
    /// whose tails has probability `1/faces`), ending after `horizon` moves.
    pub fn new(
        players: u32,
        win: u32,
        faces: u32,
        horizon: u32,
        piglet: bool,
    ) -> Result<Pig, GameError> {
        if !(2..=MAX_PLAYERS as u32).contains(&players) {
            return Err(GameError::new(format!(
                "pig needs 2 to {MAX_PLAYERS} players, not {players}"
            )));
        }
        if !(1..=MAX_WIN_SCORE).contains(&win) {
            return Err(GameError::new(format!(
                "the win score must be 1 to {MAX_WIN_SCORE}, not {win}"
            )));
        }
        if !(2..=MAX_OUTCOMES as u32).contains(&faces) {
            return Err(GameError::new(format!(
                "the die needs 2 to {MAX_OUTCOMES} faces, not {faces}"
            )));
        }
        if horizon > MAX_HORIZON {
            return Err(GameError::new(format!(
                "the horizon must be 0 to {MAX_HORIZON} moves, not {horizon}"
            )));
        }
        Ok(Pig {
            players: players as usize,
            win: win as u16,
            faces: faces as u8,
            horizon: horizon as u16,
            piglet,
        })
    }

    /// Number of faces of the die (Piglet: tails has probability `1/faces`).
    pub fn faces(&self) -> u32 {
        self.faces as u32
    }

    /// The win score.
    pub fn win_score(&self) -> u32 {
        self.win as u32
    }

    /// The horizon, in moves.
    pub fn horizon(&self) -> u32 {
        self.horizon as u32
    }

    fn next(&self, p: u8) -> u8 {
        ((p as usize + 1) % self.players) as u8
    }

    /// The winner of a position, if a banked score reached the win score.
    fn winner(&self, pos: &PigPos) -> Option<usize> {
        pos.scores[..self.players]
            .iter()
            .position(|&s| s >= self.win)
    }

    /// Reads a position written `scores/total/player/moves[/rolling]`, as [`Pig::describe`]
    /// writes it: `3,1/2/0/5`. The empty string is the start.
    pub fn parse_pos(&self, text: &str) -> Result<PigPos, GameError> {
        let text = text.trim();
        if text.is_empty() {
            return Ok(self.initial());
        }
        let parts: Vec<&str> = text.split('/').collect();
        if !(4..=5).contains(&parts.len()) {
            return Err(GameError::new(format!(
                "a pig position is scores/total/player/moves[/rolling], not '{}'",
                crate::game::quote(text)
            )));
        }
        let num = |s: &str, what: &str, max: u32| -> Result<u16, GameError> {
            match s.trim().parse::<u32>() {
                Ok(v) if v <= max => Ok(v as u16),
                _ => Err(GameError::new(format!(
                    "bad {what} '{}' in the pig position (expected 0 to {max})",
                    crate::game::quote(s)
                ))),
            }
        };
        let scores: Vec<&str> = parts[0].split(',').collect();
        if scores.len() != self.players {
            return Err(GameError::new(format!(
                "the pig position gives {} scores for {} players",
                scores.len(),
                self.players
            )));
        }
        let mut pos = self.initial();
        for (i, s) in scores.iter().enumerate() {
            pos.scores[i] = num(s, "score", self.win as u32)?;
        }
        pos.total = num(parts[1], "turn total", self.win as u32)?;
        pos.player = num(parts[2], "player", self.players as u32 - 1)? as u8;
        pos.moves = num(parts[3], "move count", self.horizon as u32)?;
        if let Some(r) = parts.get(4) {
            pos.rolling = match r.trim() {
                "rolling" => true,
                _ => {
                    return Err(GameError::new(format!(
                        "the fifth field of a pig position can only be 'rolling', not '{}'",
                        crate::game::quote(r)
                    )))
                }
            };
        }
        let banked = pos.scores[..self.players]
            .iter()
            .filter(|&&s| s >= self.win)
            .count();
        if banked > 1 {
            return Err(GameError::new("two players cannot both have won"));
        }
        Ok(pos)
    }

    /// The position in the notation of [`Pig::parse_pos`].
    pub fn describe(&self, pos: &PigPos) -> String {
        let scores: Vec<String> = pos.scores[..self.players]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut s = format!(
            "{}/{}/{}/{}",
            scores.join(","),
            pos.total,
            pos.player,
            pos.moves
        );
        if pos.rolling {
            s.push_str("/rolling");
        }
        s
    }

    /// A zero-sum evaluation at a search's horizon: each player's banked lead over the mean, as
    /// a share of the win score, scaled into the payoff bounds.
    fn lead(&self, pos: &PigPos) -> Payoffs {
        let n = self.players;
        let mean = pos.scores[..n].iter().map(|&s| s as f64).sum::<f64>() / n as f64;
        let scale = 0.9 / (self.win as f64 * (n - 1) as f64);
        let mut p = Payoffs::zeros(n);
        for i in 0..n {
            p.set(i, (pos.scores[i] as f64 - mean) * scale);
        }
        p
    }
}

impl MultiGame for Pig {
    type Pos = PigPos;
    type Move = PigMove;
    type Moves = MoveList<PigMove, 2>;

    fn players(&self) -> usize {
        self.players
    }

    fn initial(&self) -> PigPos {
        PigPos {
            scores: [0; MAX_PLAYERS],
            total: 0,
            moves: 0,
            player: 0,
            rolling: false,
        }
    }

    #[inline]
    fn turn(&self, pos: &PigPos) -> Turn {
        if self.winner(pos).is_some() || pos.moves >= self.horizon {
            Turn::Terminal
        } else if pos.rolling {
            Turn::Chance
        } else {
            Turn::Player(pos.player as usize)
        }
    }

    fn payoffs(&self, pos: &PigPos) -> Payoffs {
        match self.winner(pos) {
            Some(w) => Payoffs::win(self.players, w),
            None => Payoffs::zeros(self.players),
        }
    }

    #[inline]
    fn moves(&self, pos: &PigPos, out: &mut Self::Moves) {
        out.clear();
        if pos.scores[pos.player as usize] + pos.total < self.win {
            out.push(PigMove::Roll);
        }
        out.push(PigMove::Stop);
    }

    fn outcomes(&self, _pos: &PigPos, out: &mut Outcomes<PigMove>) {
        out.clear();
        let d = self.faces as f64;
        if self.piglet {
            out.push(ChanceOutcome {
                mv: PigMove::Tails,
                prob: 1.0 / d,
            });
            out.push(ChanceOutcome {
                mv: PigMove::Heads,
                prob: 1.0 - 1.0 / d,
            });
        } else {
            for f in 1..=self.faces {
                out.push(ChanceOutcome {
                    mv: PigMove::Face(f),
                    prob: 1.0 / d,
                });
            }
        }
    }

    #[inline]
    fn play(&self, pos: &PigPos, mv: PigMove) -> PigPos {
        let mut p = *pos;
        match mv {
            PigMove::Roll => {
                p.moves += 1;
                p.rolling = true;
            }
            PigMove::Stop => {
                p.moves += 1;
                p.scores[p.player as usize] += p.total;
                p.total = 0;
                if p.scores[p.player as usize] < self.win {
                    p.player = self.next(p.player);
                }
            }
            PigMove::Face(1) | PigMove::Tails => {
                p.rolling = false;
                p.total = 0;
                p.player = self.next(p.player);
            }
            PigMove::Face(f) => {
                p.rolling = false;
                p.total += f as u16;
            }
            PigMove::Heads => {
                p.rolling = false;
                p.total += 1;
            }
        }
        p
    }

    fn key(&self, pos: &PigPos) -> u64 {
        let mut h = (pos.total as u64) | (pos.moves as u64) << 16 | (pos.player as u64) << 32;
        h |= (pos.rolling as u64) << 40;
        let mut k = mix(h);
        for &s in &pos.scores[..self.players] {
            k = mix(k ^ s as u64);
        }
        k
    }

    fn max_plies(&self, pos: &PigPos) -> usize {
        if self.turn(pos) == Turn::Terminal {
            return 0;
        }
        // Each move may be followed by an outcome, and a die in the air is one ply more.
        2 * (self.horizon.saturating_sub(pos.moves) as usize) + pos.rolling as usize
    }

    fn payoff_bounds(&self) -> (f64, f64) {
        (-1.0 / (self.players - 1) as f64, 1.0)
    }

    fn payoff_sum(&self) -> Option<f64> {
        Some(0.0)
    }

    fn evaluate(&self, pos: &PigPos) -> Payoffs {
        self.lead(pos)
    }

    /// `player` starts a turn of their own at `pos`: turn total 0, no die in the air. The player
    /// whose turn it was loses an unbanked turn total, as after a 1; no move is counted.
    fn pass_to(&self, pos: &PigPos, player: usize) -> Option<PigPos> {
        if player >= self.players || self.turn(pos) == Turn::Terminal {
            return None;
        }
        Some(PigPos {
            player: player as u8,
            total: 0,
            rolling: false,
            ..*pos
        })
    }

    fn format_move(&self, _pos: &PigPos, mv: PigMove) -> String {
        match mv {
            PigMove::Stop => "stop".into(),
            PigMove::Roll => "roll".into(),
            PigMove::Face(f) => f.to_string(),
            PigMove::Heads => "heads".into(),
            PigMove::Tails => "tails".into(),
        }
    }

    fn name(&self) -> &'static str {
        if self.piglet {
            "piglet"
        } else {
            "pig"
        }
    }
}
