import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IconButton } from './icon-button';

describe('IconButton', () => {
  it('is named by its label while showing only the glyph', async () => {
    const onClick = jest.fn();
    render(
      <IconButton label="Next week" onClick={onClick}>
        ›
      </IconButton>,
    );
    const button = screen.getByRole('button', { name: 'Next week' });
    expect(button).toHaveTextContent('›');
    await userEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });
});
