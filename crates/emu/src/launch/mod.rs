//! Launch descriptions (`../shared/docs/launch-spec.md`): parsing, buffer generation and
//! output comparison. Being written; see the module's tests.
