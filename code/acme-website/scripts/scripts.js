// Decorates a page rendered by the platform: plain semantic HTML in, styled page out.
// No dependencies and no network beyond this repository's own files.

// Blocks this repository has code for. Any other block (metadata, recipe-facts, …) is
// left to the generic styles in styles.css, so the page never asks for a file that does
// not exist and the network log stays free of 404s.
const BLOCKS = ['hero', 'cards', 'columns', 'specs'];

// The sites sharing this code, by the site part of the preview host
// (branch--site--org.host). Anything else is plain "Acme".
const SITE_NAMES = { blog: 'Acme Journal' };

function siteName() {
  const site = window.location.hostname.split('.')[0].split('--')[1];
  return SITE_NAMES[site] || 'Acme';
}

// A stylesheet, resolved once loaded or failed: a failed style must not stop the page.
const styles = new Map();
function loadCSS(href) {
  if (!styles.has(href)) {
    styles.set(href, new Promise((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.addEventListener('load', resolve);
      link.addEventListener('error', resolve);
      document.head.append(link);
    }));
  }
  return styles.get(href);
}

// Every direct child of main is a section; blocks are divs with a class inside one.
function decorateSections(main) {
  main.querySelectorAll(':scope > div').forEach((section) => section.classList.add('section'));
}

// A link alone in a paragraph of default content is a call to action.
function decorateButtons(main) {
  main.querySelectorAll(':scope > .section > p').forEach((p) => {
    const a = p.querySelector(':scope > a');
    if (a && p.children.length === 1 && p.textContent.trim() === a.textContent.trim()) {
      a.classList.add('button');
      p.classList.add('button-container');
    }
  });
}

function findBlocks(main) {
  return [...main.querySelectorAll(':scope > .section > div[class]')].map((block) => {
    const name = block.classList[0];
    block.classList.add('block');
    block.dataset.blockName = name;
    return block;
  });
}

async function loadBlock(block) {
  const name = block.dataset.blockName;
  if (!BLOCKS.includes(name)) {
    block.dataset.blockStatus = 'unknown';
    return;
  }
  block.dataset.blockStatus = 'loading';
  try {
    const [, mod] = await Promise.all([
      loadCSS(`/blocks/${name}/${name}.css`),
      import(`/blocks/${name}/${name}.js`),
    ]);
    if (typeof mod.default === 'function') await mod.default(block);
  } catch (error) {
    // One broken block should not take the rest of the page with it.
    console.error(`block ${name} failed`, error);
  }
  block.dataset.blockStatus = 'loaded';
}

// Header and footer are empty on the page; we fill them here rather than fetching
// nav/footer fragments, which these sites do not publish.
function decorateHeader(header) {
  header.innerHTML = `<nav class="nav" aria-label="Main">
    <a class="brand" href="/"><img src="/icons/favicon.svg" alt="" width="28" height="28">
    <span></span></a></nav>`;
  header.querySelector('.brand span').textContent = siteName();
}

function decorateFooter(footer) {
  footer.innerHTML = '<p><a href="/"></a> · Kettles that keep quiet.</p>';
  footer.querySelector('a').textContent = `© ${new Date().getFullYear()} ${siteName()}`;
}

async function decoratePage() {
  const main = document.querySelector('main');
  const header = document.querySelector('body > header');
  const footer = document.querySelector('body > footer');
  if (header) decorateHeader(header);
  if (footer) decorateFooter(footer);
  if (main) {
    decorateSections(main);
    decorateButtons(main);
    await Promise.all(findBlocks(main).map(loadBlock));
  }
  document.body.classList.add('appear');
}

decoratePage();
