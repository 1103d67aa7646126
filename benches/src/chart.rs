//! An SVG bar chart of size and time per codec: each bar labelled with its
//! value and its ratio to ours (msgpack-serde compact), one colour per
//! codec family.

use std::path::Path;

use plotters::prelude::*;

use crate::run::FixtureResult;

/// Reads one number off a codec's results.
type Metric = fn(&crate::run::CodecResult) -> f64;

/// The families a reader of the chart tells apart by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// msgpack-serde, every mode.
    Ours,
    /// rmp-serde, msgpacker, zerompk (both forms).
    OtherMessagePack,
    /// prost.
    Protobuf,
    /// serde_json.
    Json,
    /// The copy of the bytes / clone of the value no codec can beat.
    Floor,
}

impl Family {
    /// The family of the codec named `codec` in the tables.
    pub fn of(codec: &str) -> Family {
        if codec.starts_with("msgpack-serde") {
            Family::Ours
        } else if codec.starts_with("prost") {
            Family::Protobuf
        } else if codec.starts_with("serde_json") {
            Family::Json
        } else if codec == crate::codecs::FLOOR {
            Family::Floor
        } else {
            Family::OtherMessagePack
        }
    }

    /// Its colour, and its name in the legend.
    fn style(self) -> (RGBColor, &'static str) {
        match self {
            Family::Ours => (RGBColor(214, 39, 40), "msgpack-serde (ours)"),
            Family::OtherMessagePack => (RGBColor(31, 119, 180), "other MessagePack"),
            Family::Protobuf => (RGBColor(44, 160, 44), "protobuf"),
            Family::Json => (RGBColor(255, 127, 14), "JSON"),
            Family::Floor => (RGBColor(150, 150, 150), "floor (memcpy / clone)"),
        }
    }
}

/// A bar's label: its value and its ratio to the reference codec's.
fn bar_label(value: f64, reference: f64) -> String {
    if reference > 0.0 {
        format!("{} ({:.2}x)", short_number(value), value / reference)
    } else {
        short_number(value)
    }
}

/// Draws, for each fixture, three panels of bars per codec: encoded bytes,
/// encode time and decode time, each relative to the largest bar, under
/// a legend of the families' colours.
pub fn write_svg(path: &Path, results: &[FixtureResult]) -> Result<(), Box<dyn std::error::Error>> {
    let codecs = results.first().map_or(0, |r| r.codecs.len());
    let panel_height = 40 + 22 * codecs as u32;
    let legend_height = 30;
    let root = SVGBackend::new(
        path,
        (
            1200,
            legend_height + panel_height * results.len().max(1) as u32,
        ),
    )
    .into_drawing_area();
    root.fill(&WHITE)?;
    let (legend, root) = root.split_vertically(legend_height);
    let families = [
        Family::Ours,
        Family::OtherMessagePack,
        Family::Protobuf,
        Family::Json,
        Family::Floor,
    ];
    for (i, family) in families.into_iter().enumerate() {
        let (color, name) = family.style();
        let x = 10 + 230 * i as i32;
        legend.draw(&Rectangle::new([(x, 8), (x + 14, 22)], color.filled()))?;
        legend.draw(&Text::new(name, (x + 20, 9), ("sans-serif", 14)))?;
    }
    for (area, result) in root
        .split_evenly((results.len().max(1), 1))
        .iter()
        .zip(results)
    {
        let panels = area.split_evenly((1, 3));
        let metrics: [(&str, Metric); 3] = [
            ("bytes", |c| c.bytes as f64),
            ("encode ns", |c| c.encode_ns),
            ("decode ns", |c| c.decode_ns),
        ];
        for (panel, (label, metric)) in panels.iter().zip(metrics) {
            let max = result
                .codecs
                .iter()
                .map(metric)
                .fold(0.0, f64::max)
                .max(1.0);
            let reference = result
                .codecs
                .iter()
                .find(|c| c.codec == crate::codecs::REFERENCE)
                .map_or(0.0, metric);
            let mut chart = ChartBuilder::on(panel)
                .caption(format!("{}: {label}", result.fixture), ("sans-serif", 16))
                .margin(6)
                .x_label_area_size(20)
                .y_label_area_size(if label == "bytes" { 190 } else { 10 })
                // Room on the right for the longest bar's label.
                .build_cartesian_2d(0.0..max * 1.45, 0..result.codecs.len())?;
            let names: Vec<&str> = result.codecs.iter().map(|c| c.codec).collect();
            chart
                .configure_mesh()
                .disable_y_mesh()
                .y_labels(names.len())
                .y_label_formatter(&|i| {
                    if label == "bytes" {
                        names.get(*i).copied().unwrap_or("").to_string()
                    } else {
                        String::new()
                    }
                })
                .x_labels(4)
                .x_label_formatter(&|v| short_number(*v))
                .draw()?;
            chart.draw_series(result.codecs.iter().enumerate().map(|(i, c)| {
                let (color, _) = Family::of(c.codec).style();
                Rectangle::new([(0.0, i), (metric(c), i + 1)], color.mix(0.85).filled())
            }))?;
            chart.draw_series(result.codecs.iter().enumerate().map(|(i, c)| {
                Text::new(
                    bar_label(metric(c), reference),
                    (metric(c) + max * 0.01, i),
                    ("sans-serif", 11),
                )
            }))?;
        }
    }
    root.present()?;
    Ok(())
}

/// An axis label: `950`, `12k`, `1.5M`, `2G`, so that labels of large
/// values do not run into each other.
fn short_number(value: f64) -> String {
    let (scaled, suffix) = [(1e9, "G"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|(unit, _)| value.abs() >= *unit)
        .map_or((value, ""), |(unit, suffix)| (value / unit, suffix));
    let text = format!("{scaled:.1}");
    format!("{}{suffix}", text.trim_end_matches(".0"))
}

#[cfg(test)]
mod tests {
    use super::{bar_label, short_number, Family};

    #[test]
    fn every_codec_has_its_family() {
        let families: Vec<Family> = crate::codecs::codecs_for("api_profile")
            .unwrap()
            .iter()
            .map(|c| Family::of(c.name))
            .collect();
        use Family::*;
        assert_eq!(
            families,
            [
                Ours,
                Ours,
                Ours,
                Ours,
                OtherMessagePack,
                OtherMessagePack,
                OtherMessagePack,
                OtherMessagePack,
                OtherMessagePack,
                Protobuf,
                Protobuf,
                Json,
                Floor
            ]
        );
    }

    #[test]
    fn bars_say_their_value_and_ratio() {
        assert_eq!(bar_label(1500.0, 1000.0), "1.5k (1.50x)");
        assert_eq!(bar_label(64.0, 0.0), "64");
    }

    #[test]
    fn axis_labels_are_short() {
        assert_eq!(short_number(0.0), "0");
        assert_eq!(short_number(950.0), "950");
        assert_eq!(short_number(1000.0), "1k");
        assert_eq!(short_number(12_345.0), "12.3k");
        assert_eq!(short_number(1_500_000.0), "1.5M");
        assert_eq!(short_number(2e9), "2G");
    }
}
