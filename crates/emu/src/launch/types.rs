//! OpenCL element types as a launch description names them (`float`, `uint2`, `half16`, ...).

use std::fmt;
use std::str::FromStr;

/// A scalar OpenCL type: the lane type of every buffer element and by-value argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// `char`: signed 8-bit integer.
    Char,
    /// `uchar`: unsigned 8-bit integer.
    UChar,
    /// `short`: signed 16-bit integer.
    Short,
    /// `ushort`: unsigned 16-bit integer.
    UShort,
    /// `int`: signed 32-bit integer.
    Int,
    /// `uint`: unsigned 32-bit integer.
    UInt,
    /// `long`: signed 64-bit integer.
    Long,
    /// `ulong`: unsigned 64-bit integer.
    ULong,
    /// `half`: IEEE binary16.
    Half,
    /// `float`: IEEE binary32.
    Float,
    /// `double`: IEEE binary64.
    Double,
}

impl Scalar {
    /// Every scalar type, in the order the launch format lists them.
    pub const ALL: [Scalar; 11] = [
        Scalar::Char,
        Scalar::UChar,
        Scalar::Short,
        Scalar::UShort,
        Scalar::Int,
        Scalar::UInt,
        Scalar::Long,
        Scalar::ULong,
        Scalar::Half,
        Scalar::Float,
        Scalar::Double,
    ];

    /// The OpenCL spelling (`uchar`, `float`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            Scalar::Char => "char",
            Scalar::UChar => "uchar",
            Scalar::Short => "short",
            Scalar::UShort => "ushort",
            Scalar::Int => "int",
            Scalar::UInt => "uint",
            Scalar::Long => "long",
            Scalar::ULong => "ulong",
            Scalar::Half => "half",
            Scalar::Float => "float",
            Scalar::Double => "double",
        }
    }

    /// The scalar type spelled `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Scalar> {
        Scalar::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The size in bytes (1, 2, 4 or 8).
    pub const fn size_bytes(self) -> u32 {
        match self {
            Scalar::Char | Scalar::UChar => 1,
            Scalar::Short | Scalar::UShort | Scalar::Half => 2,
            Scalar::Int | Scalar::UInt | Scalar::Float => 4,
            Scalar::Long | Scalar::ULong | Scalar::Double => 8,
        }
    }

    /// The size in bits.
    pub const fn bits(self) -> u32 {
        self.size_bytes() * 8
    }

    /// Whether this is a floating-point type (`half`, `float`, `double`).
    pub const fn is_float(self) -> bool {
        matches!(self, Scalar::Half | Scalar::Float | Scalar::Double)
    }

    /// Whether this is a signed integer type (`char`, `short`, `int`, `long`).
    pub const fn is_signed_int(self) -> bool {
        matches!(
            self,
            Scalar::Char | Scalar::Short | Scalar::Int | Scalar::Long
        )
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An element type: a scalar type, or an OpenCL vector of 2, 4, 8 or 16 of them.
///
/// OpenCL's 3-element vectors are not part of the launch format (their size, padded to 4
/// lanes, would not be `count * lanes * sizeof(scalar)`), so `lanes` is 1, 2, 4, 8 or 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ElemType {
    /// The lane type.
    pub scalar: Scalar,
    /// The number of lanes: 1 for a scalar type, else 2, 4, 8 or 16.
    pub lanes: u32,
}

impl ElemType {
    /// The vector widths the format accepts after a scalar name.
    pub const VECTOR_LANES: [u32; 4] = [2, 4, 8, 16];

    /// The scalar type `scalar` itself (one lane).
    pub const fn scalar(scalar: Scalar) -> ElemType {
        ElemType { scalar, lanes: 1 }
    }

    /// A vector of `lanes` elements of `scalar`; `None` unless `lanes` is 1, 2, 4, 8 or 16.
    pub fn vector(scalar: Scalar, lanes: u32) -> Option<ElemType> {
        (lanes == 1 || ElemType::VECTOR_LANES.contains(&lanes))
            .then_some(ElemType { scalar, lanes })
    }

    /// The size of one element in bytes: lanes times the scalar size, with no padding.
    /// (Saturating, so that a hand-made type with absurd `lanes` cannot overflow.)
    pub const fn size_bytes(self) -> u32 {
        self.scalar.size_bytes().saturating_mul(self.lanes)
    }

    /// Reads a type name such as `float`, `uint2` or `half16`; the error says what is accepted.
    pub fn parse(name: &str) -> Result<ElemType, String> {
        let digits = name
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(name.len());
        let (base, width) = name.split_at(digits);
        let lanes = match width {
            "" => Some(1),
            "2" => Some(2),
            "4" => Some(4),
            "8" => Some(8),
            "16" => Some(16),
            _ => None,
        };
        match (Scalar::from_name(base), lanes) {
            (Some(scalar), Some(lanes)) => Ok(ElemType { scalar, lanes }),
            (Some(_), None) if width == "3" => Err(format!(
                "unknown type {name:?}: 3-element vectors are not part of the launch format \
                 (vectors have 2, 4, 8 or 16 lanes)"
            )),
            _ => Err(format!(
                "unknown type {name:?} (expected char, uchar, short, ushort, int, uint, long, \
                 ulong, half, float or double, optionally followed by 2, 4, 8 or 16)"
            )),
        }
    }
}

impl FromStr for ElemType {
    type Err = String;

    fn from_str(s: &str) -> Result<ElemType, String> {
        ElemType::parse(s)
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lanes == 1 {
            f.write_str(self.scalar.name())
        } else {
            write!(f, "{}{}", self.scalar.name(), self.lanes)
        }
    }
}
