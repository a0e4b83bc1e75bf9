//! A small macro for registers made of named bit ranges: one list of (name, low bit, high
//! bit) drives the struct, the decoder, the encoder and the field table that printers use,
//! so a field cannot be decoded but forgotten when encoding.

/// Declares a struct of `u32` fields over a `$ty` register word. Bits no field covers land in
/// `reserved` so that decoding and encoding round-trip every word exactly.
macro_rules! bitfields {
    (
        $(#[$meta:meta])*
        pub struct $name:ident($ty:ty) {
            $( $(#[$fmeta:meta])* $field:ident: $lo:literal ..= $hi:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: u32, )*
            /// Bits no named field covers, in place (0 in well-formed descriptors).
            pub reserved: $ty,
        }

        impl $name {
            /// (field name, low bit, width) of every named field, in bit order.
            pub const FIELDS: &'static [(&'static str, u32, u32)] =
                &[$( (stringify!($field), $lo, $hi - $lo + 1), )*];

            /// Mask of the bits named fields cover.
            pub const FIELD_MASK: $ty = 0 $( | ((((1u64 << ($hi - $lo + 1)) - 1) << $lo) as $ty) )*;

            /// Splits a register word into its fields.
            pub fn from_bits(bits: $ty) -> Self {
                $name {
                    $( $field: ((u64::from(bits) >> $lo) & ((1u64 << ($hi - $lo + 1)) - 1)) as u32, )*
                    reserved: bits & !Self::FIELD_MASK,
                }
            }

            /// Joins the fields into a register word; fails naming the first field whose
            /// value does not fit its width.
            pub fn to_bits(&self) -> Result<$ty, crate::error::CodeObjectError> {
                let mut bits: u64 = u64::from(self.reserved & !Self::FIELD_MASK);
                $(
                    let width: u32 = $hi - $lo + 1;
                    if u64::from(self.$field) >> width != 0 {
                        return Err(crate::error::CodeObjectError::FieldOverflow {
                            field: concat!(stringify!($name), ".", stringify!($field)),
                            value: u64::from(self.$field),
                            bits: width,
                        });
                    }
                    bits |= u64::from(self.$field) << $lo;
                )*
                Ok(bits as $ty)
            }

            /// The fields as (name, value) pairs, in bit order.
            pub fn values(&self) -> Vec<(&'static str, u32)> {
                vec![$( (stringify!($field), self.$field), )*]
            }
        }
    };
}

pub(crate) use bitfields;
