//! The parameters of the CFR solver ([`super::solver::Cfr`]) and its named variants: what a
//! solver and a saved state ([`super::state`]) both hold.

/// The knobs that make CFR, CFR+, linear CFR and discounted CFR out of one solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// Regret matching+: cumulative regrets are clipped at 0 after each update.
    pub plus: bool,
    /// After iteration `t`, positive cumulative regrets are multiplied by `t^alpha /
    /// (t^alpha + 1)`; `None`: never discounted.
    pub alpha: Option<f64>,
    /// After iteration `t`, negative cumulative regrets are multiplied by `t^beta / (t^beta +
    /// 1)`; `None`: never discounted.
    pub beta: Option<f64>,
    /// Iteration `t`'s strategy weighs `t^gamma` in the average strategy (0: uniform
    /// averaging; 1: linear).
    pub gamma: f64,
}

impl Params {
    /// Vanilla CFR: regret matching, uniform averaging.
    pub const VANILLA: Params = Params {
        plus: false,
        alpha: None,
        beta: None,
        gamma: 0.0,
    };

    /// CFR+: regret matching+, linear averaging from iteration 1.
    pub const PLUS: Params = Params {
        plus: true,
        alpha: None,
        beta: None,
        gamma: 1.0,
    };

    /// Linear CFR: regrets and average both weighted by the iteration number (discounted CFR
    /// with alpha = beta = gamma = 1).
    pub const LINEAR: Params = Params {
        plus: false,
        alpha: Some(1.0),
        beta: Some(1.0),
        gamma: 1.0,
    };

    /// Discounted CFR with the parameters its authors recommend: alpha 1.5, beta 0, gamma 2.
    pub const DISCOUNTED: Params = Params::discounted(1.5, 0.0, 2.0);

    /// Discounted CFR with parameters `alpha`, `beta`, `gamma`.
    pub const fn discounted(alpha: f64, beta: f64, gamma: f64) -> Params {
        Params {
            plus: false,
            alpha: Some(alpha),
            beta: Some(beta),
            gamma,
        }
    }
}

/// The named variants, for front ends and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Vanilla CFR ([`Params::VANILLA`]).
    Vanilla,
    /// CFR+ ([`Params::PLUS`]).
    Plus,
    /// Linear CFR ([`Params::LINEAR`]).
    Linear,
    /// Discounted CFR, alpha 1.5, beta 0, gamma 2 ([`Params::DISCOUNTED`]).
    Discounted,
}

impl Variant {
    /// Every variant.
    pub const ALL: [Variant; 4] = [
        Variant::Vanilla,
        Variant::Plus,
        Variant::Linear,
        Variant::Discounted,
    ];

    /// The variant's parameters.
    pub const fn params(self) -> Params {
        match self {
            Variant::Vanilla => Params::VANILLA,
            Variant::Plus => Params::PLUS,
            Variant::Linear => Params::LINEAR,
            Variant::Discounted => Params::DISCOUNTED,
        }
    }

    /// The variant's short name.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Vanilla => "cfr",
            Variant::Plus => "cfr+",
            Variant::Linear => "lcfr",
            Variant::Discounted => "dcfr",
        }
    }
}
