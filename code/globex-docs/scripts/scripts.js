// Decorates a Globex docs page: sections, blocks, header and footer. No dependencies,
// no requests beyond this repository's own files.

// Blocks with code in /blocks/. Others are marked "unknown" and never fetched, so a
// page cannot cause a 404 by using a block this repository lacks.
const BLOCKS = ['note'];

// Resolves once the stylesheet is loaded or has failed: styles must not block the page.
function loadCSS(href) {
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    link.addEventListener('load', resolve);
    link.addEventListener('error', resolve);
    document.head.append(link);
  });
}

async function loadBlock(block) {
  const name = block.classList[0];
  block.classList.add('block');
  block.dataset.blockName = name;
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
    console.error(`block ${name} failed`, error);
  }
  block.dataset.blockStatus = 'loaded';
}

async function decoratePage() {
  const header = document.querySelector('body > header');
  if (header) {
    header.innerHTML = '<a class="brand" href="/"><img src="/icons/favicon.svg" alt="" width="24" height="24">Globex <span>docs</span></a>';
  }
  const footer = document.querySelector('body > footer');
  if (footer) footer.innerHTML = '<p>Globex documentation · <a href="/">Contents</a></p>';
  const main = document.querySelector('main');
  if (main) {
    const sections = [...main.querySelectorAll(':scope > div')];
    sections.forEach((section) => section.classList.add('section'));
    const blocks = sections.flatMap((section) => [...section.querySelectorAll(':scope > div[class]')]);
    await Promise.all(blocks.map(loadBlock));
  }
  document.body.classList.add('appear');
}

decoratePage();
