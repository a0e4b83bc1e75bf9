use gcnkit_asm::assemble_instruction;
use gcnkit_asm::expr::NoSymbols;
use gcnkit_isa::Target;
fn main() {
    let target = Target::parse("gfx900", Some("-xnack")).unwrap();
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let mut set = std::collections::BTreeSet::new();
    for l in text.lines() {
        let t = l.trim();
        if t.starts_with(|c: char| c.is_ascii_lowercase()) && !t.contains(".L") && !t.contains(':')
        {
            set.insert(t.to_string());
        }
    }
    let v: Vec<_> = set.into_iter().collect();
    let reps: usize = std::env::args().nth(2).map_or(5, |s| s.parse().unwrap());
    let t0 = std::time::Instant::now();
    let mut n = 0usize;
    for _ in 0..reps {
        for s in &v {
            n += assemble_instruction(&target, s, &NoSymbols).map_or(0, |e| e.len as usize);
        }
    }
    let dt = t0.elapsed();
    eprintln!(
        "{} distinct, {:.0} ns each ({n})",
        v.len(),
        dt.as_nanos() as f64 / (v.len() * reps) as f64
    );
}
