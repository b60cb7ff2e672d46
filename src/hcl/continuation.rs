//! Whether console input seems to go on: `terraform console`'s interactive mode reads another
//! line (with the prompt `: `) while the lines so far leave a bracket, heredoc or template
//! sequence open (Terraform's `repl.ExpressionEntryCouldContinue`, 1.9 and later).

use super::lexer::{scan, Start, Tk, Token};

/// Whether `lines` (the console lines entered so far for one expression) leave an opening
/// delimiter unclosed while every closing one met so far matches. An empty last line always
/// ends the entry, so a user can force evaluation; input the scanner rejects, or a closing
/// delimiter that does not match, ends it too, so its syntax error shows at once.
pub fn expression_could_continue(lines: &[&str]) -> bool {
    match lines.last() {
        None => return false,
        Some(last) if last.trim().is_empty() => return false,
        Some(_) => {}
    }
    // Scanned as one text: heredocs and templates keep their own state across lines.
    let mut text = lines.join("\n");
    text.push('\n');
    let mut tokens: Vec<Token> = Vec::new();
    if scan(&text, Start::Code, &mut tokens) {
        return false;
    }
    let mut open: Vec<Tk> = Vec::new();
    for token in &tokens {
        let opener = match token.kind {
            Tk::OBrace | Tk::OBrack | Tk::OParen | Tk::OHeredoc | Tk::TemplateInterp | Tk::TemplateControl => {
                open.push(token.kind);
                continue;
            }
            Tk::CBrace => Tk::OBrace,
            Tk::CBrack => Tk::OBrack,
            Tk::CParen => Tk::OParen,
            Tk::CHeredoc => Tk::OHeredoc,
            Tk::TemplateSeqEnd => match open.pop() {
                Some(Tk::TemplateInterp | Tk::TemplateControl) => continue,
                _ => return false,
            },
            _ => continue,
        };
        if open.pop() != Some(opener) {
            return false;
        }
    }
    !open.is_empty()
}

#[cfg(test)]
mod tests {
    use super::expression_could_continue;

    #[test]
    fn open_delimiters_continue_and_closed_or_broken_ones_end() {
        // (lines, whether another line is read); the cases of Terraform's continuation_test.go.
        let cases: &[(&[&str], bool)] = &[
            (&[], false),
            (&[""], false),
            (&["foo(", ""], false),
            (&["foo()"], false),
            (&["foo("], true),
            (&["foo(", "  bar,", ")"], false),
            (&["[]"], false),
            (&["["], true),
            (&["[", "]"], false),
            (&["{}"], false),
            (&["{"], true),
            (&["{", "}"], false),
            (&["\"\""], false),
            (&["\""], false),
            (&["\"", "\""], false),
            (&["<<EOT", "EOT"], false),
            (&["<<EOT"], true),
            (&["<<EOT", "beep", "EOT"], false),
            (&["<<EOT", "beep"], true),
            (&["<<-EOT", "EOT"], false),
            (&["<<-EOT"], true),
            (&["<<-EOT", "beep", "EOT"], false),
            (&["<<-EOT", "beep"], true),
            (&["<<EOT", "%{ for x in y }"], true),
            (&["<<EOT", "%{ for x in y }", "boop", "%{ endfor }"], true),
            (&["<<EOT", "%{ for x in y }", "boop", "%{ endfor }", "EOT"], false),
            (&["<<EOT", "]"], true),
            (&["\"${hello}\""], false),
            (&["\"${hello", "}\""], false),
            (&["\"${", "  hello", "}\""], false),
            (&["\"${", "  hello"], true),
            (&["\"%{ for x in y }%{ endfor }\""], false),
            (&["\"%{", "   for x in y }%{ endfor }\""], false),
            (&["\"%{ for x in y }"], false),
            (&["([)"], false),
            (&["\"${]"], false),
            (&["\"%{]"], false),
            (&["tolist([", "1,"], true),
            (&["{ a = [", "1 ]", "}"], false),
            (&["(1", "   "], false),
        ];
        for (lines, want) in cases {
            assert_eq!(expression_could_continue(lines), *want, "{lines:?}");
        }
    }
}
