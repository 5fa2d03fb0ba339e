import { NavBar } from 'antd-mobile';
import { useNavigate } from 'react-router';

/** A screen's title bar with a way back home. */
export function PageHeader({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <NavBar className="page-header" onBack={() => navigate('/home')}>
      <h1 className="page-header__title">{title}</h1>
    </NavBar>
  );
}
