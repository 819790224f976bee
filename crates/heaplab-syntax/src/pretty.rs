//! TODO(helper): see docs/language.md
