// Cards: each row is a card. A cell holding just a picture is the card's image, any
// other cell its body. Rows become list items, as a set of cards is a list.
export default function decorate(block) {
  const ul = document.createElement('ul');
  [...block.children].forEach((row) => {
    const li = document.createElement('li');
    [...row.children].forEach((cell) => {
      const onlyPicture = cell.children.length === 1 && cell.querySelector(':scope > picture')
        && cell.textContent.trim() === '';
      cell.className = onlyPicture ? 'cards-card-image' : 'cards-card-body';
      li.append(cell);
    });
    ul.append(li);
  });
  block.replaceChildren(ul);
}
