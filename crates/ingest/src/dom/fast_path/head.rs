//! The insertion modes up to the body: the document's start, `head`, and what comes
//! between `head` and `body`.

use super::*;

impl<'a> Builder<'a> {
    pub(super) fn initial(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => match skip_space(text) {
                Some(rest) => self.again(Mode::BeforeHtml, Token::Text(rest)),
                None => Ok(Flow::Done),
            },
            Token::Comment(_) => Ok(Flow::Done),
            Token::Doctype => {
                self.quirks = false;
                self.mode = Mode::BeforeHtml;
                Ok(Flow::Done)
            }
            token => self.again(Mode::BeforeHtml, token),
        }
    }

    pub(super) fn before_html(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Comment(_) => Ok(Flow::Done),
            Token::Text(text) => match skip_space(text) {
                Some(rest) => {
                    self.insert(local_name!("html"), Attrs::new())?;
                    self.again(Mode::BeforeHead, Token::Text(rest))
                }
                None => Ok(Flow::Done),
            },
            Token::Start { name, attrs, .. } if name == local_name!("html") => {
                self.insert(name, attrs)?;
                self.mode = Mode::BeforeHead;
                Ok(Flow::Done)
            }
            Token::End(ref name) if !ends_early(name) => Ok(Flow::Done),
            token => {
                self.insert(local_name!("html"), Attrs::new())?;
                self.again(Mode::BeforeHead, token)
            }
        }
    }

    pub(super) fn before_head(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => match skip_space(text) {
                Some(rest) => self.implied_head(Token::Text(rest)),
                None => Ok(Flow::Done),
            },
            Token::Comment(text) => {
                self.insert_comment(text);
                Ok(Flow::Done)
            }
            Token::Start { name, attrs, .. } if name == local_name!("head") => {
                self.insert(name, attrs)?;
                self.mode = Mode::InHead;
                Ok(Flow::Done)
            }
            Token::End(ref name) if !ends_early(name) => Ok(Flow::Done),
            token => self.implied_head(token),
        }
    }

    pub(super) fn implied_head(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        self.insert(local_name!("head"), Attrs::new())?;
        self.again(Mode::InHead, token)
    }

    /// The elements of `head` ([`Builder::is_head_element`]), wherever they are met (`in
    /// body` sends them here too); any other name gives up.
    ///
    /// After a script, or a `meta` that may name a charset, html5ever's tokenizer stops and
    /// resumes, and a U+FEFF it resumes on is dropped as a byte order mark: the fast path
    /// gives up there.
    pub(super) fn head_element(&mut self, name: LocalName, attrs: Attrs) -> Result<(), Bail> {
        let resumes = matches!(name, local_name!("script") | local_name!("meta"));
        match name {
            local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("link")
            | local_name!("meta") => self.insert_void(name, attrs)?,
            local_name!("title") => self.raw_text(name, attrs, true)?,
            local_name!("noframes") | local_name!("style") | local_name!("script") => {
                self.raw_text(name, attrs, false)?
            }
            _ => return Err(Bail),
        }
        if resumes && self.tokens.rest().starts_with('\u{feff}') {
            return Err(Bail);
        }
        Ok(())
    }

    /// An element whose content is (escapable) raw text up to its end tag.
    pub(super) fn raw_text(
        &mut self,
        name: LocalName,
        attrs: Attrs,
        rcdata: bool,
    ) -> Result<(), Bail> {
        let text = self.tokens.raw_text(&name, rcdata)?;
        self.insert(name, attrs)?;
        self.insert_text(text);
        self.pop();
        Ok(())
    }

    pub(super) fn in_head(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => {
                let (space, rest) = split_space(text);
                self.insert_text(space);
                match rest {
                    Some(rest) => self.leave_head(Token::Text(rest)),
                    None => Ok(Flow::Done),
                }
            }
            Token::Comment(text) => {
                self.insert_comment(text);
                Ok(Flow::Done)
            }
            Token::Start {
                name,
                attrs,
                self_closing,
            } => {
                if name == local_name!("noscript") {
                    self.insert(name, attrs)?;
                    self.mode = Mode::InHeadNoscript;
                    return Ok(Flow::Done);
                }
                if name == local_name!("head") {
                    return Ok(Flow::Done);
                }
                if Self::is_head_element(&name) {
                    self.head_element(name, attrs)?;
                    return Ok(Flow::Done);
                }
                self.leave_head(Token::Start {
                    name,
                    attrs,
                    self_closing,
                })
            }
            Token::End(name) => match name {
                local_name!("head") => {
                    self.pop();
                    self.mode = Mode::AfterHead;
                    Ok(Flow::Done)
                }
                _ if ends_early(&name) => self.leave_head(Token::End(name)),
                _ => Ok(Flow::Done),
            },
            Token::Doctype => Ok(Flow::Done),
            Token::Eof => self.leave_head(Token::Eof),
        }
    }

    /// Whether `name` is handled by [`Builder::head_element`].
    pub(super) fn is_head_element(name: &LocalName) -> bool {
        matches!(
            *name,
            local_name!("base")
                | local_name!("basefont")
                | local_name!("bgsound")
                | local_name!("link")
                | local_name!("meta")
                | local_name!("title")
                | local_name!("noframes")
                | local_name!("style")
                | local_name!("script")
                | local_name!("template")
        )
    }

    pub(super) fn leave_head(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        self.pop();
        self.again(Mode::AfterHead, token)
    }

    pub(super) fn in_head_noscript(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::End(ref name) if *name == local_name!("noscript") => {
                self.pop();
                self.mode = Mode::InHead;
                Ok(Flow::Done)
            }
            Token::Text(text) => {
                let (space, rest) = split_space(text);
                self.insert_text(space);
                match rest {
                    Some(rest) => self.leave_noscript(Token::Text(rest)),
                    None => Ok(Flow::Done),
                }
            }
            Token::Comment(text) => {
                self.insert_comment(text);
                Ok(Flow::Done)
            }
            Token::Start { name, attrs, .. }
                if matches!(
                    name,
                    local_name!("basefont")
                        | local_name!("bgsound")
                        | local_name!("link")
                        | local_name!("meta")
                        | local_name!("noframes")
                        | local_name!("style")
                ) =>
            {
                self.head_element(name, attrs)?;
                Ok(Flow::Done)
            }
            // Ignored.
            Token::Start { ref name, .. }
                if matches!(*name, local_name!("head") | local_name!("noscript")) =>
            {
                Ok(Flow::Done)
            }
            Token::End(ref name) if *name != local_name!("br") => Ok(Flow::Done),
            token => self.leave_noscript(token),
        }
    }

    pub(super) fn leave_noscript(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        self.pop();
        self.again(Mode::InHead, token)
    }

    pub(super) fn after_head(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => {
                let (space, rest) = split_space(text);
                self.insert_text(space);
                match rest {
                    Some(rest) => self.implied_body(Token::Text(rest)),
                    None => Ok(Flow::Done),
                }
            }
            Token::Comment(text) => {
                self.insert_comment(text);
                Ok(Flow::Done)
            }
            Token::Start { name, attrs, .. } if name == local_name!("body") => {
                self.insert(name, attrs)?;
                self.mode = Mode::InBody;
                Ok(Flow::Done)
            }
            Token::Start { ref name, .. } if *name == local_name!("head") => Ok(Flow::Done),
            // `head` elements go back into `head`, which the stack cannot reopen.
            Token::Start { ref name, .. }
                if matches!(
                    *name,
                    local_name!("frameset")
                        | local_name!("base")
                        | local_name!("basefont")
                        | local_name!("bgsound")
                        | local_name!("link")
                        | local_name!("meta")
                        | local_name!("noframes")
                        | local_name!("script")
                        | local_name!("style")
                        | local_name!("template")
                        | local_name!("title")
                ) =>
            {
                Err(Bail)
            }
            Token::End(ref name)
                if !matches!(
                    *name,
                    local_name!("body") | local_name!("html") | local_name!("br")
                ) =>
            {
                Ok(Flow::Done)
            }
            token => self.implied_body(token),
        }
    }

    pub(super) fn implied_body(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        self.insert(local_name!("body"), Attrs::new())?;
        self.again(Mode::InBody, token)
    }
}

/// End tags that, before the body, act as the content would (they imply what is missing);
/// other end tags are ignored there.
fn ends_early(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("head") | local_name!("body") | local_name!("html") | local_name!("br")
    )
}
