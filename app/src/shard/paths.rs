//! The moves and paths of a split, stored compactly and read with limits, and the tree they
//! make ([`PathTree`]).

use super::{ShardError, MAX_DEPTH, MAX_PATHS};
use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A sequence of moves in the game's notation, stored compactly (one string and the end of
/// each move in it) so that a file's paths take about the memory of their text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves {
    text: String,
    ends: Vec<u32>,
}

impl Moves {
    /// Appends `mv`; an error if the text would pass 4 GiB.
    pub fn push(&mut self, mv: &str) -> Result<(), ShardError> {
        let end = self
            .text
            .len()
            .checked_add(mv.len())
            .and_then(|e| u32::try_from(e).ok())
            .ok_or(ShardError::MovesTooLong)?;
        self.text.push_str(mv);
        self.ends.push(end);
        Ok(())
    }

    /// The moves `texts`.
    pub fn of<S: AsRef<str>>(texts: &[S]) -> Result<Moves, ShardError> {
        let mut m = Moves::default();
        for t in texts {
            m.push(t.as_ref())?;
        }
        Ok(m)
    }

    /// A view of the whole sequence.
    pub fn path(&self) -> Path<'_> {
        Path {
            text: &self.text,
            ends: &self.ends,
            start: 0,
        }
    }

    /// How many moves.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// A view of a sequence of moves (of [`Moves`] or one of [`Paths`]).
#[derive(Clone, Copy, Debug)]
pub struct Path<'a> {
    text: &'a str,
    ends: &'a [u32],
    start: u32,
}

impl<'a> Path<'a> {
    /// How many moves.
    pub fn len(self) -> usize {
        self.ends.len()
    }

    /// True if there are none.
    pub fn is_empty(self) -> bool {
        self.ends.is_empty()
    }

    /// The moves, in order.
    pub fn iter(self) -> impl Iterator<Item = &'a str> {
        let text = self.text;
        let mut s = self.start as usize;
        self.ends.iter().map(move |&e| {
            let mv = text.get(s..e as usize).unwrap_or_default();
            s = e as usize;
            mv
        })
    }

    /// The moves as strings.
    pub fn to_vec(self) -> Vec<String> {
        self.iter().map(str::to_string).collect()
    }
}

impl Serialize for Path<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl Serialize for Moves {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.path().serialize(s)
    }
}

/// Reads one move into a [`Moves`].
struct PushMove<'a>(&'a mut Moves);

impl<'de> DeserializeSeed<'de> for PushMove<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for PushMove<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a move")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.0.push(v).map_err(E::custom)
    }
}

/// Reads a sequence of at most `limit` moves into a [`Moves`]: an error as soon as the
/// sequence passes it, so that a long one costs no memory.
struct PushMoves<'a> {
    moves: &'a mut Moves,
    limit: usize,
}

impl<'de> DeserializeSeed<'de> for PushMoves<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PushMoves<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of moves")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut n = 0;
        while seq.next_element_seed(PushMove(self.moves))?.is_some() {
            n += 1;
            if n > self.limit {
                return Err(de::Error::custom(format!(
                    "a path of more than {} moves",
                    self.limit
                )));
            }
        }
        Ok(())
    }
}

impl<'de> Deserialize<'de> for Moves {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Moves, D::Error> {
        let mut moves = Moves::default();
        d.deserialize_seq(PushMoves {
            moves: &mut moves,
            limit: usize::MAX,
        })?;
        Ok(moves)
    }
}

/// A frontier line's paths, stored compactly (see [`Moves`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paths {
    moves: Moves,
    /// The end of each path, as a count of moves.
    ends: Vec<u32>,
}

impl Paths {
    /// Appends `path`.
    pub fn push<S: AsRef<str>>(&mut self, path: &[S]) -> Result<(), ShardError> {
        for mv in path {
            self.moves.push(mv.as_ref())?;
        }
        self.end_path()
    }

    fn end_path(&mut self) -> Result<(), ShardError> {
        let end = u32::try_from(self.moves.len()).map_err(|_| ShardError::TooManyMoves)?;
        self.ends.push(end);
        Ok(())
    }

    /// How many paths.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Path `i`.
    pub fn get(&self, i: usize) -> Option<Path<'_>> {
        let e = *self.ends.get(i)? as usize;
        let s = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(Path {
            text: &self.moves.text,
            ends: self.moves.ends.get(s..e)?,
            start: if s == 0 { 0 } else { self.moves.ends[s - 1] },
        })
    }

    /// The first path: the one solve-shard plays (every checked line has one).
    pub fn first(&self) -> Path<'_> {
        self.get(0).unwrap_or(Path {
            text: "",
            ends: &[],
            start: 0,
        })
    }

    /// The paths, in order.
    pub fn iter(&self) -> impl Iterator<Item = Path<'_>> {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

impl Serialize for Paths {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Paths {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Paths, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Paths;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of paths")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Paths, A::Error> {
                let mut paths = Paths::default();
                loop {
                    let seed = PushMoves {
                        moves: &mut paths.moves,
                        limit: MAX_DEPTH,
                    };
                    if seq.next_element_seed(seed)?.is_none() {
                        return Ok(paths);
                    }
                    paths.end_path().map_err(de::Error::custom)?;
                    if paths.len() > MAX_PATHS {
                        return Err(de::Error::custom(format!("more than {MAX_PATHS} paths")));
                    }
                }
            }
        }
        d.deserialize_seq(V)
    }
}

/// The position at the end of `path` from the game's start, every move checked.
pub fn play_path<G: cutoff::Notation>(game: &G, path: Path<'_>) -> Result<G::Pos, ShardError> {
    let mut pos = game.initial();
    for (i, text) in path.iter().enumerate() {
        let mv = game
            .parse_move(&pos, text)
            .map_err(|source| ShardError::BadMove {
                index: i + 1,
                mv: text.to_string(),
                source,
            })?;
        pos = game.play(&pos, mv);
    }
    Ok(pos)
}

/// The tree of a split's paths: the positions between the split position and the frontier,
/// each a node with its children, or a frontier line. Nodes are numbered in preorder (node 0
/// is the split position, a node's subtree is the nodes from it to its size later), so a
/// child always comes after its parent and the tree takes a few bytes a node.
#[derive(Debug, Default)]
pub struct PathTree {
    /// Each node's subtree size, itself included.
    size: Vec<u32>,
    /// The frontier line a node is, or `u32::MAX`.
    line: Vec<u32>,
    /// Each node's move, as its index in its parent's legal moves (`Game::moves`).
    mv: Vec<u16>,
}

impl PathTree {
    /// Adds a node, the child of the last open one by the move `mv` (see
    /// [`PathTree::close`]).
    pub(super) fn push(&mut self, mv: u16) -> u32 {
        let n = self.size.len() as u32;
        self.size.push(1);
        self.line.push(u32::MAX);
        self.mv.push(mv);
        n
    }

    /// Closes node `n`: the nodes added since are its subtree.
    pub(super) fn close(&mut self, n: usize) {
        self.size[n] = (self.size.len() - n) as u32;
    }

    /// Makes node `n` the frontier line `id`.
    pub(super) fn set_line(&mut self, n: usize, id: usize) {
        self.line[n] = id as u32;
    }

    /// How many nodes.
    pub fn len(&self) -> usize {
        self.size.len()
    }

    /// True for a tree with no node.
    pub fn is_empty(&self) -> bool {
        self.size.is_empty()
    }

    /// The frontier line node `n` is, if it is one.
    pub fn line(&self, n: usize) -> Option<usize> {
        let l = *self.line.get(n)?;
        (l != u32::MAX).then_some(l as usize)
    }

    /// Node `n`'s move, as its index in its parent's legal moves.
    pub fn move_index(&self, n: usize) -> usize {
        self.mv.get(n).map_or(0, |&m| m as usize)
    }

    /// Node `n`'s children.
    pub fn children(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        let end = n + self.size.get(n).map_or(1, |&s| s as usize);
        let mut c = n + 1;
        std::iter::from_fn(move || {
            (c < end).then(|| {
                let x = c;
                c += self.size[c].max(1) as usize;
                x
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_keep_their_moves_and_refuse_long_ones() {
        let mut p = Paths::default();
        p.push(&["4", "10"]).unwrap();
        p.push::<&str>(&[]).unwrap();
        p.push(&["é", "x"]).unwrap();
        let all: Vec<Vec<String>> = p.iter().map(|x| x.to_vec()).collect();
        assert_eq!(all, [vec!["4", "10"], vec![], vec!["é", "x"]]);
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(json, r#"[["4","10"],[],["é","x"]]"#);
        assert_eq!(serde_json::from_str::<Paths>(&json).unwrap(), p);
        let long = format!("[[{}]]", vec!["\"1\""; MAX_DEPTH + 1].join(","));
        let e = serde_json::from_str::<Paths>(&long)
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than 64 moves"), "{e}");
        let m: Moves = serde_json::from_str(r#"["a\"b", "c"]"#).unwrap();
        assert_eq!(m.path().to_vec(), ["a\"b", "c"]);
    }
}
