//! The command-line names of the engine's fieldless choices (algorithms, parallel modes, tree
//! orders): one macro writes each enum's `ALL`, `name`, `Display` and `FromStr`, so that every
//! such choice reads and refuses its names the same way.

/// The names of `or`-joined choices: `a, b or c`.
pub(crate) fn listed(names: &[&str]) -> String {
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Gives the fieldless enum `$ty` its command-line names: `ALL` (every variant, in the order
/// given), `name`, `Display` and a `FromStr` whose error, made by `$err` from the message,
/// says `unknown $what 'x' (expected a, b or c)`.
macro_rules! named_choices {
    ($ty:ident, $what:literal, $err:ty, $mk:expr, { $($variant:ident => $name:literal),+ $(,)? }) => {
        impl $ty {
            /// Every variant, in the order the command line lists them.
            pub const ALL: [$ty; [$($name),+].len()] = [$($ty::$variant),+];

            /// The name the command line uses.
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $name,)+
                }
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $err;
            fn from_str(s: &str) -> Result<Self, $err> {
                $ty::ALL.into_iter().find(|v| v.name() == s).ok_or_else(|| {
                    let mk: fn(String) -> $err = $mk;
                    mk(format!(
                        concat!("unknown ", $what, " '{}' (expected {})"),
                        $crate::game::quote(s),
                        $crate::names::listed(&$ty::ALL.map(|v| v.name()))
                    ))
                })
            }
        }
    };
}

pub(crate) use named_choices;

#[cfg(test)]
mod tests {
    use super::listed;

    #[test]
    fn choices_are_listed_with_commas_and_a_last_or() {
        assert_eq!(listed(&[]), "");
        assert_eq!(listed(&["a"]), "a");
        assert_eq!(listed(&["a", "b"]), "a or b");
        assert_eq!(listed(&["a", "b", "c"]), "a, b or c");
    }
}
