import './zod-config.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, type NavigateOptions, type To } from 'react-router';
import { App } from './app/App.tsx';
import './styles.css';

// Under <BrowserRouter> navigate() returns nothing; only a data router's returns a promise, which its
// type keeps as `void | Promise<void>`. This narrows it for our router (React Router's advice for it),
// so a navigation is not mistaken for a floating promise.
declare module 'react-router' {
  interface NavigateFunction {
    (to: To, options?: NavigateOptions): void;
    (delta: number): void;
  }
}

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
