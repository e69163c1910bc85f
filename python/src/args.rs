//! Python's arguments as the application's option values: integers that are never bools and
//! whose range the application checks ([`Int`]), positions given as text, bytes or a list of
//! Connect Four columns ([`position_text`]), and the game's options ([`GameKeywords`]).
//!
//! PyO3 checks each keyword's name and type (a TypeError, as any Python function raises);
//! the values are checked by the application's own checks, which the command shares, and
//! refused with [`crate::Error`] naming the keyword.

use crate::app_error;
use cutoff_app::options::integer;
use cutoff_app::position::{
    parse_board, parse_order, parse_root, GameKind, GameOptions, ShapeOptions,
};
use cutoff_app::AppError;
use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyList, PyString, PyTuple};

/// A Python `int` argument, of any size: one beyond 128 bits is kept saturated, so that its
/// refusal is the application's message naming the keyword rather than an OverflowError. A
/// `bool` is refused with a TypeError: it is an `int` subclass, but `threads=True` is a
/// mistake, not one thread.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Int(pub i128);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err("expected an int, not bool"));
        }
        match obj.extract::<i128>() {
            Ok(v) => Ok(Int(v)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                let negative = obj.lt(0)?;
                Ok(Int(if negative { i128::MIN } else { i128::MAX }))
            }
            Err(e) => Err(e),
        }
    }
}

/// The keyword `field`'s integer as the options' type `T`, checked by the application.
pub(crate) fn int<T: TryFrom<i128>>(field: &str, v: Int) -> PyResult<T> {
    integer(field, v.0).map_err(app_error)
}

/// [`int`] of an optional keyword.
pub(crate) fn opt_int<T: TryFrom<i128>>(field: &str, v: Option<Int>) -> PyResult<Option<T>> {
    v.map(|v| int(field, v)).transpose()
}

/// A value refused by one of the application's parsers (which name no option), as the
/// error naming the keyword `field`.
pub(crate) fn refused(field: &str, why: impl std::fmt::Display) -> PyErr {
    app_error(AppError::invalid(format!(
        "{}: {why}",
        cutoff_app::opt(field)
    )))
}

/// The game called `name`, or the error listing the games.
pub(crate) fn game_kind(name: &str) -> PyResult<GameKind> {
    GameKind::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = GameKind::ALL.iter().map(|g| g.name()).collect();
        crate::Error::new_err(format!(
            "unknown game '{}' (expected one of {})",
            cutoff::game::quote_max(name, 40),
            names.join(", ")
        ))
    })
}

/// The position as the application reads it: `str` as it is, `bytes` decoded (ASCII or
/// UTF-8), and for Connect Four a list or tuple of 1-based column numbers, written as the
/// command's digits (commas between them where a column number has two digits, as on boards
/// wider than 9). `width` is the board's. Anything else is a TypeError.
pub(crate) fn position_text(
    game: GameKind,
    width: u32,
    obj: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let Some(obj) = obj else {
        return Ok(None);
    };
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Some(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return match std::str::from_utf8(b.as_bytes()) {
            Ok(s) => Ok(Some(s.to_string())),
            Err(_) => Err(crate::Error::new_err(
                "position: bytes that are not ASCII or UTF-8",
            )),
        };
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        if game != GameKind::Connect4 {
            return Err(PyTypeError::new_err(format!(
                "position: a list of columns is for connect4; {game} takes a str"
            )));
        }
        let columns = obj
            .try_iter()?
            .map(|c| c?.extract::<Int>().map(|c| c.0.to_string()))
            .collect::<PyResult<Vec<String>>>()
            .map_err(|e| PyTypeError::new_err(format!("position: {e}")))?;
        if columns.is_empty() {
            return Ok(None);
        }
        // Digits run together on boards up to 9 wide; any other number (which the game
        // then refuses, or a column past 9) needs commas to be read back as one column.
        let digits = width <= 9 && columns.iter().all(|c| c.len() == 1 && c != "0");
        return Ok(Some(columns.join(if digits { "" } else { "," })));
    }
    Err(PyTypeError::new_err(format!(
        "position must be str, bytes{} or None, not {}",
        if game == GameKind::Connect4 {
            ", a list of columns"
        } else {
            ""
        },
        obj.get_type().name()?
    )))
}

/// The keywords that set a game up, beside its name and position.
pub(crate) struct GameKeywords<'a> {
    /// `board`: Connect Four's WIDTHxHEIGHT.
    pub board: Option<&'a str>,
    /// `connect`: Connect Four's winning line.
    pub connect: Option<Int>,
    /// `branching`: random and chance trees.
    pub branching: Option<Int>,
    /// `depth`: a random or chance tree's depth (for `solve`, also its depth limit).
    pub depth: Option<Int>,
    /// `seed`: random trees.
    pub seed: Int,
    /// `order`: random trees' move ordering.
    pub order: &'a str,
    /// `root`: `max` or `min`, for trees.
    pub root: &'a str,
}

impl GameKeywords<'_> {
    /// Connect Four's shape.
    pub fn shape(&self) -> PyResult<ShapeOptions> {
        Ok(ShapeOptions {
            board: self
                .board
                .map(|b| parse_board(b).map_err(|e| refused("board", e)))
                .transpose()?,
            connect: opt_int("connect", self.connect)?,
        })
    }

    /// The game's options, at `position` (see [`position_text`]).
    pub fn options(
        &self,
        game: GameKind,
        position: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<GameOptions> {
        let shape = self.shape()?;
        let position = position_text(game, shape.shape().0, position)?;
        let mut g = GameOptions::new(game, position.as_deref()).on(shape);
        g.branching = opt_int("branching", self.branching)?;
        g.depth = opt_int("depth", self.depth)?;
        g.seed = int("seed", self.seed)?;
        g.order = parse_order(self.order).map_err(|e| refused("order", e))?;
        g.root = parse_root(self.root).map_err(|e| refused("root", e))?;
        Ok(g)
    }
}
