/** Whether two boxes from `locator.boundingBox()` share any area (touching edges do not count). */
export function overlaps(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The boxes of the named buttons that `box` covers: none means the page's actions stay clear of it. */
export async function coveredActions(page, box, names) {
  const covered = [];
  for (const name of names) {
    const action = await page
      .getByRole('button', { name, exact: true })
      .or(page.getByText(name, { exact: true }))
      .first()
      .boundingBox();
    if (action && overlaps(box, action)) covered.push(name);
  }
  return covered;
}
