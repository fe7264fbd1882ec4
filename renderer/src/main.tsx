import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { useConnection } from './stores/connection';
import { connectToMain } from './transport';
import './styles.css';

const api = connectToMain((link) => useConnection.getState().setLink(link));
useConnection.getState().attach(api);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
