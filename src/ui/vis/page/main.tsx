import { render } from 'preact';
import { App } from './app.js';
import { apiSource, embeddedSource } from './data-source.js';
import './styles.css';

// The server prints `…/#token=…&session=…`: the fragment never leaves the browser.
const params = new URLSearchParams(location.hash.slice(1));
const source = embeddedSource() ?? apiSource(params.get('token') ?? '');
render(<App source={source} initialSession={params.get('session')} />, document.getElementById('app')!);
