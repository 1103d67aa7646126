//! `rename_all` rules, as serde spells them.

/// A `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    pub const NAMES: &'static str = "\"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \
        \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\"";

    pub fn from_str(rule: &str) -> Option<RenameRule> {
        Some(match rule {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// Renames an identifier, written in snake_case (fields) or
    /// PascalCase (variants).
    pub fn apply(self, ident: &str) -> String {
        let words = split_words(ident);
        let capitalized = |w: &String| {
            let mut chars = w.chars();
            chars
                .next()
                .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
        };
        match self {
            RenameRule::Lower => words.concat(),
            RenameRule::Upper => words.concat().to_uppercase(),
            RenameRule::Pascal => words.iter().map(capitalized).collect(),
            RenameRule::Camel => {
                let mut out = words.first().cloned().unwrap_or_default();
                out.extend(words.iter().skip(1).map(capitalized));
                out
            }
            RenameRule::Snake => words.join("_"),
            RenameRule::ScreamingSnake => words.join("_").to_uppercase(),
            RenameRule::Kebab => words.join("-"),
            RenameRule::ScreamingKebab => words.join("-").to_uppercase(),
        }
    }
}

/// Lower-case words of a snake_case or PascalCase identifier.
fn split_words(ident: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for part in ident
        .trim_start_matches("r#")
        .split('_')
        .filter(|p| !p.is_empty())
    {
        let mut word = String::new();
        for c in part.chars() {
            if c.is_uppercase() && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            word.extend(c.to_lowercase());
        }
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::RenameRule;

    #[test]
    fn renames_fields_and_variants() {
        assert_eq!(
            RenameRule::Camel.apply("unit_price_cents"),
            "unitPriceCents"
        );
        assert_eq!(RenameRule::Pascal.apply("unit_price"), "UnitPrice");
        assert_eq!(
            RenameRule::Snake.apply("OutForDelivery"),
            "out_for_delivery"
        );
        assert_eq!(
            RenameRule::ScreamingKebab.apply("OutForDelivery"),
            "OUT-FOR-DELIVERY"
        );
        assert_eq!(RenameRule::Lower.apply("Shipped"), "shipped");
    }
}
