import { render } from 'preact';
import { Api } from './api.js';
import { App } from './app.js';
import { takeToken } from './token.js';
import './style.css';

const token = takeToken(location, history, sessionStorage);
const root = document.getElementById('app')!;
if (token) render(<App api={new Api(token)} />, root);
else
  render(
    <p class="notice warn">
      This page needs the access token: open the URL that <code>kimi-ts web</code> printed.
    </p>,
    root,
  );
