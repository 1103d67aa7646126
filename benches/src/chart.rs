//! An SVG bar chart of size and time per codec.

use std::path::Path;

use plotters::prelude::*;

use crate::run::FixtureResult;

/// Reads one number off a codec's results.
type Metric = fn(&crate::run::CodecResult) -> f64;

/// Draws, for each fixture, three panels of bars per codec: encoded bytes,
/// encode time and decode time, each relative to the largest bar.
pub fn write_svg(path: &Path, results: &[FixtureResult]) -> Result<(), Box<dyn std::error::Error>> {
    let codecs = results.first().map_or(0, |r| r.codecs.len());
    let panel_height = 40 + 22 * codecs as u32;
    let root = SVGBackend::new(path, (1200, panel_height * results.len().max(1) as u32))
        .into_drawing_area();
    root.fill(&WHITE)?;
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
            let mut chart = ChartBuilder::on(panel)
                .caption(format!("{}: {label}", result.fixture), ("sans-serif", 16))
                .margin(6)
                .x_label_area_size(20)
                .y_label_area_size(if label == "bytes" { 190 } else { 10 })
                .build_cartesian_2d(0.0..max * 1.05, 0..result.codecs.len())?;
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
                let color = if i == 0 { RED.mix(0.8) } else { BLUE.mix(0.5) };
                Rectangle::new([(0.0, i), (metric(c), i + 1)], color.filled())
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
    use super::short_number;

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
