//! The table insertion modes: sections, rows and cells, for tables that need no foster
//! parenting.

use super::*;

impl<'a> Builder<'a> {
    pub(super) fn table_text(&mut self, text: Cow<'_, str>) -> Result<Flow<'a>, Bail> {
        if !text.bytes().all(is_space) {
            return Err(Bail);
        }
        self.insert_text(text);
        Ok(Flow::Done)
    }

    pub(super) fn in_table(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Text(text) => self.table_text(text),
            Token::Comment(text) => {
                self.insert_comment(text);
                Ok(Flow::Done)
            }
            Token::Eof => Ok(Flow::Done),
            Token::Start { name, attrs, .. } => match name {
                local_name!("tbody") | local_name!("tfoot") | local_name!("thead") => {
                    self.require_current(&[local_name!("table")])?;
                    self.insert(name, attrs)?;
                    self.mode = Mode::InTableBody;
                    Ok(Flow::Done)
                }
                local_name!("td") | local_name!("th") | local_name!("tr") => {
                    self.require_current(&[local_name!("table")])?;
                    self.insert(local_name!("tbody"), Attrs::new())?;
                    self.again(
                        Mode::InTableBody,
                        Token::Start {
                            name,
                            attrs,
                            self_closing: false,
                        },
                    )
                }
                local_name!("style") | local_name!("script") => {
                    self.head_element(name, attrs)?;
                    Ok(Flow::Done)
                }
                _ => Err(Bail),
            },
            Token::End(name) if name == local_name!("table") => {
                if !self.in_scope(&name, Scope::Table) {
                    return Err(Bail);
                }
                self.pop_until_named(&name)?;
                self.reset_mode()?;
                Ok(Flow::Done)
            }
            // Ignored.
            Token::End(ref name)
                if matches!(
                    *name,
                    local_name!("body")
                        | local_name!("caption")
                        | local_name!("col")
                        | local_name!("colgroup")
                        | local_name!("html")
                        | local_name!("tbody")
                        | local_name!("td")
                        | local_name!("tfoot")
                        | local_name!("th")
                        | local_name!("thead")
                        | local_name!("tr")
                ) =>
            {
                Ok(Flow::Done)
            }
            Token::Doctype => Ok(Flow::Done),
            // Foster parenting.
            Token::End(_) => Err(Bail),
        }
    }

    pub(super) fn require_current(&self, names: &[LocalName]) -> Result<(), Bail> {
        match self.stack.last().and_then(Open::name) {
            Some(name) if names.contains(name) => Ok(()),
            _ => Err(Bail),
        }
    }

    pub(super) fn in_table_body(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        const SECTIONS: [LocalName; 3] = [
            local_name!("tbody"),
            local_name!("tfoot"),
            local_name!("thead"),
        ];
        match token {
            Token::Start { name, attrs, .. } if name == local_name!("tr") => {
                self.require_current(&SECTIONS)?;
                self.insert(name, attrs)?;
                self.mode = Mode::InRow;
                Ok(Flow::Done)
            }
            Token::Start { name, attrs, .. }
                if matches!(name, local_name!("td") | local_name!("th")) =>
            {
                self.require_current(&SECTIONS)?;
                self.insert(local_name!("tr"), Attrs::new())?;
                self.again(
                    Mode::InRow,
                    Token::Start {
                        name,
                        attrs,
                        self_closing: false,
                    },
                )
            }
            Token::End(ref name) if SECTIONS.contains(name) => {
                if !self.in_scope(name, Scope::Table) {
                    return Err(Bail);
                }
                self.require_current(&SECTIONS)?;
                self.pop();
                self.mode = Mode::InTable;
                Ok(Flow::Done)
            }
            Token::Start { ref name, .. } if SECTIONS.contains(name) => {
                self.require_current(&SECTIONS)?;
                self.pop();
                self.again(Mode::InTable, token)
            }
            Token::End(ref name) if *name == local_name!("table") => {
                self.require_current(&SECTIONS)?;
                self.pop();
                self.again(Mode::InTable, token)
            }
            Token::End(ref name)
                if matches!(
                    *name,
                    local_name!("body")
                        | local_name!("caption")
                        | local_name!("col")
                        | local_name!("colgroup")
                        | local_name!("html")
                        | local_name!("td")
                        | local_name!("th")
                        | local_name!("tr")
                ) =>
            {
                Err(Bail)
            }
            token => self.in_table(token),
        }
    }

    pub(super) fn in_row(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::Start { name, attrs, .. }
                if matches!(name, local_name!("td") | local_name!("th")) =>
            {
                self.require_current(&[local_name!("tr")])?;
                self.insert(name, attrs)?;
                self.mode = Mode::InCell;
                Ok(Flow::Done)
            }
            Token::End(ref name) if *name == local_name!("tr") => {
                self.require_current(&[local_name!("tr")])?;
                self.pop();
                self.mode = Mode::InTableBody;
                Ok(Flow::Done)
            }
            Token::Start { ref name, .. }
                if matches!(
                    *name,
                    local_name!("tbody")
                        | local_name!("tfoot")
                        | local_name!("thead")
                        | local_name!("tr")
                ) =>
            {
                self.require_current(&[local_name!("tr")])?;
                self.pop();
                self.again(Mode::InTableBody, token)
            }
            Token::End(ref name)
                if matches!(
                    *name,
                    local_name!("table")
                        | local_name!("tbody")
                        | local_name!("tfoot")
                        | local_name!("thead")
                ) =>
            {
                if !self.in_scope(name, Scope::Table) {
                    return Err(Bail);
                }
                self.require_current(&[local_name!("tr")])?;
                self.pop();
                self.again(Mode::InTableBody, token)
            }
            Token::End(ref name)
                if matches!(
                    *name,
                    local_name!("body")
                        | local_name!("caption")
                        | local_name!("col")
                        | local_name!("colgroup")
                        | local_name!("html")
                        | local_name!("td")
                        | local_name!("th")
                ) =>
            {
                Err(Bail)
            }
            token => self.in_table(token),
        }
    }

    pub(super) fn in_cell(&mut self, token: Token<'a>) -> Result<Flow<'a>, Bail> {
        match token {
            Token::End(ref name) if matches!(*name, local_name!("td") | local_name!("th")) => {
                if !self.in_scope(name, Scope::Table) {
                    return Err(Bail);
                }
                let name = name.clone();
                self.generate_implied_end(None);
                self.pop_until_named(&name)?;
                self.mode = Mode::InRow;
                Ok(Flow::Done)
            }
            Token::Start { ref name, .. }
                if matches!(
                    *name,
                    local_name!("tbody")
                        | local_name!("td")
                        | local_name!("tfoot")
                        | local_name!("th")
                        | local_name!("thead")
                        | local_name!("tr")
                ) =>
            {
                self.close_cell()?;
                self.again(Mode::InRow, token)
            }
            Token::End(ref name)
                if matches!(
                    *name,
                    local_name!("table")
                        | local_name!("tbody")
                        | local_name!("tfoot")
                        | local_name!("thead")
                        | local_name!("tr")
                ) =>
            {
                if !self.in_scope(name, Scope::Table) {
                    return Err(Bail);
                }
                self.close_cell()?;
                self.again(Mode::InRow, token)
            }
            Token::Start { ref name, .. }
                if matches!(
                    *name,
                    local_name!("caption") | local_name!("col") | local_name!("colgroup")
                ) =>
            {
                Err(Bail)
            }
            Token::End(ref name)
                if matches!(
                    *name,
                    local_name!("body")
                        | local_name!("caption")
                        | local_name!("col")
                        | local_name!("colgroup")
                        | local_name!("html")
                ) =>
            {
                Err(Bail)
            }
            token => self.in_body(token),
        }
    }

    pub(super) fn close_cell(&mut self) -> Result<(), Bail> {
        if !self.in_scope(&local_name!("td"), Scope::Table)
            && !self.in_scope(&local_name!("th"), Scope::Table)
        {
            return Err(Bail);
        }
        self.generate_implied_end(None);
        self.pop_until(|o| o.html(&local_name!("td")) || o.html(&local_name!("th")))
    }

    /// "Reset the insertion mode appropriately", after a table is closed.
    pub(super) fn reset_mode(&mut self) -> Result<(), Bail> {
        for (i, open) in self.stack.iter().enumerate().rev() {
            let last = i == 0;
            let Some(name) = open.name() else {
                continue;
            };
            self.mode = match *name {
                local_name!("td") | local_name!("th") if !last => Mode::InCell,
                local_name!("tr") => Mode::InRow,
                local_name!("tbody") | local_name!("thead") | local_name!("tfoot") => {
                    Mode::InTableBody
                }
                local_name!("table") => Mode::InTable,
                local_name!("body") => Mode::InBody,
                local_name!("select")
                | local_name!("caption")
                | local_name!("colgroup")
                | local_name!("template")
                | local_name!("head")
                | local_name!("frameset")
                | local_name!("html") => return Err(Bail),
                _ => continue,
            };
            return Ok(());
        }
        Err(Bail)
    }
}
