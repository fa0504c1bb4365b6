// Hero: a picture and a text. The picture becomes the media side of the banner, the
// rest the copy beside (or, on narrow screens, below) it.
export default function decorate(block) {
  const picture = block.querySelector('picture');
  const media = document.createElement('div');
  media.className = 'hero-media';
  const content = document.createElement('div');
  content.className = 'hero-content';
  if (picture) {
    media.append(picture);
    // The hero is the first thing seen: do not wait for lazy loading to fetch it.
    const img = picture.querySelector('img');
    if (img) img.loading = 'eager';
  }
  // Whatever else the rows held (heading, text, links) is the copy; emptied cells go.
  block.querySelectorAll(':scope > div > div').forEach((cell) => content.append(...cell.childNodes));
  block.replaceChildren(...(picture ? [media] : []), content);
  if (!picture) block.classList.add('hero-text-only');
}
