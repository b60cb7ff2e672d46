pub mod render_human;
