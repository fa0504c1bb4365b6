//! Prints the table of diagnostic codes that the guide's page of diagnostic codes holds;
//! `cargo xtask docs` runs it and writes its output between the page's markers.

fn main() {
    print!("{}", siteops_config::diagnostic::render::code_table());
}
