//! The "in body" insertion mode, and the modes after `</body>`.

use super::*;

impl<'a> Builder<'a> {
    pub(super) fn in_body(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => {
                self.insert_text(text);
                Ok(Flow::Done)
            }
            Token::Comment(text) => {
                self.insert_comment(text);
                Ok(Flow::Done)
            }
            Token::Doctype => Ok(Flow::Done),
            Token::Eof => Ok(Flow::Done),
            Token::Start {
                name,
                attrs,
                self_closing,
            } => self.start_in_body(name, attrs, self_closing),
            Token::End(name) => self.end_in_body(name),
        }
    }

    pub(super) fn start_in_body(
        &mut self,
        name: LocalName,
        attrs: Attrs,
        self_closing: bool,
    ) -> Result<Flow<'a>, Bail> {
        if Self::is_head_element(&name) {
            self.head_element(name, attrs)?;
            return Ok(Flow::Done);
        }
        match name {
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("main")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("search")
            | local_name!("section")
            | local_name!("summary")
            | local_name!("ul")
            | local_name!("menu") => {
                self.close_p_in_button_scope()?;
                self.insert(name, attrs)?;
            }
            local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6") => {
                self.close_p_in_button_scope()?;
                if self.current().name().is_some_and(is_heading) {
                    self.pop();
                }
                self.insert(name, attrs)?;
            }
            local_name!("pre") | local_name!("listing") => {
                // An unacknowledged self-closing flag is reported right after the tag,
                // and that report takes the place of the line feed html5ever drops.
                if self_closing {
                    return Err(Bail);
                }
                self.close_p_in_button_scope()?;
                self.insert(name, attrs)?;
                self.ignore_lf = true;
            }
            local_name!("form") => {
                if self.form.is_some() {
                    return Err(Bail);
                }
                self.close_p_in_button_scope()?;
                self.insert(name, attrs)?;
                self.form = Some(self.stack.len() - 1);
            }
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                self.close_list_item(&name)?;
                self.close_p_in_button_scope()?;
                self.insert(name, attrs)?;
            }
            local_name!("button") => {
                if self.in_scope(&local_name!("button"), Scope::Default) {
                    return Err(Bail);
                }
                self.insert(name, attrs)?;
            }
            local_name!("a") => {
                if self.stack.iter().any(|o| o.html(&local_name!("a"))) {
                    return Err(Bail);
                }
                self.insert(name, attrs)?;
            }
            local_name!("b")
            | local_name!("big")
            | local_name!("code")
            | local_name!("em")
            | local_name!("font")
            | local_name!("i")
            | local_name!("s")
            | local_name!("small")
            | local_name!("strike")
            | local_name!("strong")
            | local_name!("tt")
            | local_name!("u") => self.insert(name, attrs)?,
            local_name!("table") => {
                if !self.quirks {
                    self.close_p_in_button_scope()?;
                }
                self.insert(name, attrs)?;
                self.mode = Mode::InTable;
            }
            local_name!("area")
            | local_name!("br")
            | local_name!("embed")
            | local_name!("img")
            | local_name!("keygen")
            | local_name!("wbr")
            | local_name!("param")
            | local_name!("source")
            | local_name!("track") => self.insert_void(name, attrs)?,
            // In a `select`, these close it.
            local_name!("input") | local_name!("hr")
                if self.in_scope(&local_name!("select"), Scope::Default) =>
            {
                return Err(Bail);
            }
            local_name!("input") => self.insert_void(name, attrs)?,
            local_name!("select") => {
                if self.in_scope(&name, Scope::Default) {
                    return Err(Bail);
                }
                self.insert(name, attrs)?;
            }
            local_name!("option") | local_name!("optgroup") => {
                if self.in_scope(&local_name!("select"), Scope::Default) {
                    let except = (name == local_name!("option")).then_some(local_name!("optgroup"));
                    self.generate_implied_end(except.as_ref());
                } else if self.current_is(&local_name!("option")) {
                    self.pop();
                }
                self.insert(name, attrs)?;
            }
            local_name!("hr") => {
                self.close_p_in_button_scope()?;
                self.insert_void(name, attrs)?;
            }
            local_name!("textarea") => {
                if self_closing {
                    return Err(Bail);
                }
                let text = self.tokens.raw_text(&name, true)?;
                let text = match text {
                    Cow::Borrowed(t) => Cow::Borrowed(t.strip_prefix('\n').unwrap_or(t)),
                    Cow::Owned(t) => Cow::Owned(t.strip_prefix('\n').unwrap_or(&t).to_owned()),
                };
                self.insert(name, attrs)?;
                self.insert_text(text);
                self.pop();
            }
            local_name!("iframe") | local_name!("noembed") => self.raw_text(name, attrs, false)?,
            local_name!("svg") => self.svg(attrs, self_closing)?,
            // A second `<body>` adds the attributes `body` does not have yet.
            local_name!("body") => {
                if self.stack.len() > 1 && self.stack[1].html(&local_name!("body")) {
                    self.add_missing_attributes(1, &attrs);
                }
            }
            // Ignored: table parts outside a table, `head`, `frame`.
            local_name!("caption")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("frame")
            | local_name!("head")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr") => {}
            // Repairs, foreign content other than SVG, and elements with modes or
            // formatting markers of their own.
            local_name!("frameset")
            | local_name!("plaintext")
            | local_name!("nobr")
            | local_name!("applet")
            | local_name!("marquee")
            | local_name!("object")
            | local_name!("image")
            | local_name!("xmp")
            | local_name!("rb")
            | local_name!("rtc")
            | local_name!("rp")
            | local_name!("rt")
            | local_name!("math") => return Err(Bail),
            _ => self.insert(name, attrs)?,
        }
        Ok(Flow::Done)
    }

    /// A new `li` (or `dd`, `dt`) closes the open one it would be a sibling of.
    pub(super) fn close_list_item(&mut self, name: &LocalName) -> Result<(), Bail> {
        let closes = |n: &LocalName| {
            if *name == local_name!("li") {
                *n == local_name!("li")
            } else {
                matches!(*n, local_name!("dd") | local_name!("dt"))
            }
        };
        for open in self.stack.iter().rev() {
            let Some(open_name) = open.name() else {
                return Err(Bail);
            };
            if closes(open_name) {
                let open_name = open_name.clone();
                self.generate_implied_end(Some(&open_name));
                return self.pop_until_named(&open_name);
            }
            if is_special(open_name)
                && !matches!(
                    *open_name,
                    local_name!("address") | local_name!("div") | local_name!("p")
                )
            {
                break;
            }
        }
        Ok(())
    }

    pub(super) fn end_in_body(&mut self, name: LocalName) -> Result<Flow<'a>, Bail> {
        match name {
            local_name!("body") | local_name!("html") => {
                if !self.in_scope(&local_name!("body"), Scope::Default) {
                    return Ok(Flow::Done);
                }
                if name == local_name!("html") {
                    return self.again(Mode::AfterBody, Token::End(name));
                }
                self.mode = Mode::AfterBody;
            }
            local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("button")
            | local_name!("center")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("pre")
            | local_name!("search")
            | local_name!("section")
            | local_name!("select")
            | local_name!("summary")
            | local_name!("ul") => {
                if self.in_scope(&name, Scope::Default) {
                    self.generate_implied_end(None);
                    self.pop_until_named(&name)?;
                }
            }
            local_name!("form") => {
                // The form element pointer is cleared even when its form is not in scope.
                // The pointer names an element, not a name: a form closed meanwhile (by a
                // cell's end, say) is not in scope, even with another form open around it.
                let Some(at) = self.form.take() else {
                    return Ok(Flow::Done);
                };
                let open = self.stack.get(at).is_some_and(|o| o.html(&name));
                if !open
                    || self.stack[at + 1..]
                        .iter()
                        .any(|o| o.bounds(Scope::Default))
                {
                    return Ok(Flow::Done);
                }
                self.generate_implied_end(None);
                if self.stack.len() != at + 1 {
                    return Err(Bail);
                }
                self.pop();
            }
            local_name!("p") => {
                // With no `p` open, `</p>` makes an empty one.
                if !self.in_scope(&name, Scope::Button) {
                    self.insert_void(name, Attrs::new())?;
                    return Ok(Flow::Done);
                }
                self.generate_implied_end(Some(&name));
                self.pop_until_named(&name)?;
            }
            // `</br>` is taken for `<br>`.
            local_name!("br") => self.insert_void(name, Attrs::new())?,
            local_name!("li") | local_name!("dd") | local_name!("dt") => {
                let scope = if name == local_name!("li") {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if self.in_scope(&name, scope) {
                    self.generate_implied_end(Some(&name));
                    self.pop_until_named(&name)?;
                }
            }
            local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6") => {
                let in_scope = self
                    .stack
                    .iter()
                    .rev()
                    .find(|o| o.name().is_some_and(is_heading) || o.bounds(Scope::Default))
                    .is_some_and(|o| o.name().is_some_and(is_heading));
                if in_scope {
                    self.generate_implied_end(None);
                    self.pop_until(|o| o.name().is_some_and(is_heading))?;
                }
            }
            // The adoption agency, when the formatting element is the current node.
            _ if is_formatting(&name) => {
                if self.current_is(&name) {
                    self.pop();
                } else if self.stack.iter().any(|o| o.html(&name)) {
                    return Err(Bail);
                } else {
                    // No such formatting element: an end tag like any other.
                    self.any_other_end_tag(&name)?;
                }
            }
            local_name!("applet")
            | local_name!("marquee")
            | local_name!("object")
            | local_name!("template") => return Err(Bail),
            _ => self.any_other_end_tag(&name)?,
        }
        Ok(Flow::Done)
    }

    /// An end tag with no rule of its own closes the nearest element of its name, unless
    /// a special element comes first (then it is ignored, a parse error).
    pub(super) fn any_other_end_tag(&mut self, name: &LocalName) -> Result<(), Bail> {
        for (i, open) in self.stack.iter().enumerate().rev() {
            let Some(open_name) = open.name() else {
                return Err(Bail);
            };
            if open_name == name {
                let above = &self.stack[i + 1..];
                // Only implied end tags may be above it, or the parser reports an error
                // and pops them anyway; a formatting element among them gives up.
                if above.iter().any(|o| o.name().is_some_and(is_formatting)) {
                    return Err(Bail);
                }
                while self.stack.len() > i {
                    self.pop();
                }
                return Ok(());
            }
            // Ignored (a parse error): nothing changes.
            if is_special(open_name) {
                return Ok(());
            }
        }
        Err(Bail)
    }

    // --- After the body.

    pub(super) fn after_body(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => {
                let (space, rest) = split_space(text);
                self.insert_text(space);
                match rest {
                    Some(rest) => self.again(Mode::InBody, Token::Text(rest)),
                    None => Ok(Flow::Done),
                }
            }
            Token::Comment(text) => {
                // After `</body>` a comment goes to `html`, after the open `body`: the stack
                // only appends to the current node, so the whole tree gives up. After
                // `</html>` it goes to the document, which the page does not hold.
                let _ = text;
                if self.mode == Mode::AfterBody && self.whole {
                    return Err(Bail);
                }
                Ok(Flow::Done)
            }
            Token::Eof => Ok(Flow::Done),
            Token::End(ref name) if *name == local_name!("html") => {
                if self.mode == Mode::AfterAfterBody {
                    return Err(Bail);
                }
                self.mode = Mode::AfterAfterBody;
                Ok(Flow::Done)
            }
            Token::Start { ref name, .. } if *name == local_name!("html") => Err(Bail),
            Token::Doctype => Ok(Flow::Done),
            token => self.again(Mode::InBody, token),
        }
    }
}
