//! An enum's variant, both ways: a unit variant's tag or name, a
//! one-entry map from tag or name to payload.

use msgpack_serde::core::Token;
use msgpack_serde::schema::{Layout, Payload, Shape, VariantDef};

use super::{kind, not_a_key, Direction, Name, Rewrite};

impl<'d> Rewrite<'_, 'd> {
    /// An enum: a unit variant's tag or name, a one-entry map from tag or
    /// name to payload.
    pub(super) fn variant(&mut self, ty: &str, variants: &'d [VariantDef]) -> Result<(), String> {
        let at = self.reader.position();
        match self.token()? {
            Token::Map(1) => {
                self.write(Token::Map(1));
                let at = self.reader.position();
                let key = self.token()?;
                let variant = self.key_variant(ty, variants, at, key)?;
                match variant.map(|v| (v, &v.payload)) {
                    Some((variant, payload)) => {
                        self.path.push(format!(".{}", variant.name));
                        match payload {
                            Payload::Unit => self.copy()?,
                            Payload::Newtype(shape) => self.value(shape)?,
                            Payload::Tuple(shapes) => self.value(&Shape::Tuple(shapes.clone()))?,
                            Payload::Struct(fields) => self.fields(
                                &format!("{ty}::{}", variant.name),
                                fields,
                                Layout::Map,
                                false,
                            )?,
                        }
                        self.path.pop();
                    }
                    None => self.copy()?,
                }
                Ok(())
            }
            key @ (Token::Int(_) | Token::Str(_)) => {
                // A unit variant is a value: `inspect` shows its name beside it.
                if let Some(variant) = self.key_variant(ty, variants, at, key)? {
                    if variant.payload != Payload::Unit {
                        let message = format!("{ty}: variant `{}` carries data", variant.name);
                        return Err(self.fail_at(at, message));
                    }
                    self.names.insert(at, Name::Variant(variant.name.clone()));
                }
                Ok(())
            }
            other => Err(self.fail_at(
                at,
                format!("{ty}: expected a variant, found {}", kind(&other)),
            )),
        }
    }

    /// Writes a variant's key (a tag, or a name) the other way round and
    /// gives the variant, `None` for a tag no variant has.
    fn key_variant(
        &mut self,
        ty: &str,
        variants: &'d [VariantDef],
        at: usize,
        key: Token<'_>,
    ) -> Result<Option<&'d VariantDef>, String> {
        match (self.direction, key) {
            // A variant's name is a key too, as the derive reads it.
            (Direction::ToNames, key @ (Token::Int(_) | Token::Str(_))) => {
                let (tag, variant) = match key {
                    Token::Int(tag) => match tag.as_u64() {
                        Some(tag) => (tag, variants.iter().find(|v| v.tag == tag)),
                        None => return Err(self.fail_at(at, not_a_key(ty, &key))),
                    },
                    Token::Str(name) => match variants.iter().find(|v| v.name == name) {
                        Some(variant) => (variant.tag, Some(variant)),
                        None => return Err(self.fail_at(at, not_a_key(ty, &key))),
                    },
                    _ => unreachable!("matched above"),
                };
                match variant {
                    Some(variant) => {
                        self.write_str(&variant.name);
                        self.names.insert(
                            at,
                            Name::Tag(format!("{} (tag {})", variant.name, variant.tag)),
                        );
                    }
                    None => {
                        self.write_str(&format!("#{tag}"));
                        self.names
                            .insert(at, Name::Tag(format!("unknown variant (tag {tag})")));
                    }
                }
                Ok(variant)
            }
            (Direction::ToTags, Token::Str(name)) => match variants.iter().find(|v| v.name == name)
            {
                Some(variant) => {
                    self.write_tag(variant.tag);
                    Ok(Some(variant))
                }
                None => match name
                    .strip_prefix('#')
                    .and_then(|digits| digits.parse::<u64>().ok())
                {
                    Some(tag) => match variants.iter().find(|v| v.tag == tag) {
                        // A known tag goes by its name, whose payload is checked.
                        Some(variant) => Err(self.fail(format!(
                            "{ty}: `{name}` is the tag of variant `{}`: use its name",
                            variant.name
                        ))),
                        None => {
                            self.write_tag(tag);
                            Ok(None)
                        }
                    },
                    None => Err(self.fail(format!("{ty} has no variant `{name}`"))),
                },
            },
            (_, other) => Err(self.fail_at(
                at,
                format!("{ty}: expected a variant, found {}", kind(&other)),
            )),
        }
    }
}
