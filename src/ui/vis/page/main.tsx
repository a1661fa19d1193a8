import { render } from 'preact';
import { App } from './app.js';
import { apiSource, embeddedSource } from './data-source.js';
import './styles.css';

const params = new URLSearchParams(location.search);
const source = embeddedSource() ?? apiSource(params.get('token') ?? '');
render(<App source={source} initialSession={params.get('session')} />, document.getElementById('app')!);
